import { useEffect, useRef } from 'react';
import { toCanvas } from 'qrcode';
import { roomTestIds } from './roomTestIds';

/**
 * The join URL as a QR code, drawn on a canvas by the qrcode library (`toCanvas(canvas, text,
 * options)`: https://github.com/soldair/node-qrcode#tocanvascanvaselement-text-options-cberror).
 * `width`: the canvas's pixels (the page's CSS may draw it larger or smaller); `testId`: the
 * large view's copy has its own.
 */
export function QrCode({
  text,
  width = 200,
  className = 'room-qr',
  testId = roomTestIds.qr,
}: {
  text: string;
  width?: number;
  className?: string;
  testId?: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (canvas.current)
      toCanvas(canvas.current, text, { margin: 1, width, errorCorrectionLevel: 'M' }).catch(
        () => undefined,
      );
  }, [text, width]);
  return (
    <canvas
      ref={canvas}
      className={className}
      data-testid={testId}
      role="img"
      aria-label={`QR code of ${text}`}
    />
  );
}
