import { useEffect, useRef } from 'react';
import { toCanvas } from 'qrcode';
import { roomTestIds } from './roomTestIds';

/**
 * The join URL as a QR code, drawn on a canvas by the qrcode library (`toCanvas(canvas, text,
 * options)`: https://github.com/soldair/node-qrcode#tocanvascanvaselement-text-options-cberror).
 */
export function QrCode({ text }: { text: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (canvas.current)
      toCanvas(canvas.current, text, { margin: 1, width: 200, errorCorrectionLevel: 'M' }).catch(
        () => undefined,
      );
  }, [text]);
  return (
    <canvas
      ref={canvas}
      className="room-qr"
      data-testid={roomTestIds.qr}
      role="img"
      aria-label={`QR code of ${text}`}
    />
  );
}
