import type { ReactNode } from 'react';

/**
 * A link past the top of the page to where the work is, for the keyboard: it focuses its target
 * without a hash change (the URL's hash is the share link's).
 * @param href - what the link shows as its address (`#pipeline`).
 * @param target - the element to focus, looked up when followed.
 */
export function SkipLink({
  href,
  target,
  children,
}: {
  href: string;
  target: () => HTMLElement | null | undefined;
  children: ReactNode;
}) {
  return (
    <a
      className="skip-link"
      href={href}
      onClick={(e) => {
        e.preventDefault();
        target()?.focus();
      }}
    >
      {children}
    </a>
  );
}
