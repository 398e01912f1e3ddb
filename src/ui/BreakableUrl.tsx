import { Fragment } from 'react';

/**
 * An address that wraps only after a slash: "http://" / "127.0.0.1:39235/" / "?join=43H8Q9",
 * its host and port on one line, read from the back of a room. (With `overflow-wrap: anywhere`
 * it wrapped wherever the column ended: "…:392" / "35/?join=…", the port in two halves.) No
 * break between the two slashes of "//"; each part is one unbreakable word (`.url-part`,
 * base.css: Chromium also breaks after a "?", "…/?" / "join=…"). The text is the address,
 * unchanged: <wbr> adds none.
 */
export function BreakableUrl({ url }: { url: string }) {
  const parts = url.split(/(?<=\/)(?!\/)/);
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          <span className="url-part">{p}</span>
        </Fragment>
      ))}
    </>
  );
}
