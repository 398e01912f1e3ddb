import type { ReactNode } from 'react';

/**
 * Text that keeps, from the first frame, the room of a longer text it will show later in the run
 * (the embed: src/ui/hooks/useReserveRoom.ts): the text and a hidden bold copy of `reserve` share
 * one grid cell (styles/base.css `.reserving`), so the box is as wide and as tall as the larger of
 * the two. The copy is generated content: not in the element's text, nor read out. Without
 * `reserve` the element holds its text alone.
 */
export function ReservingText({
  as: Tag = 'div',
  reserve,
  className,
  children,
  ...rest
}: {
  as?: 'div' | 'dd';
  reserve?: string;
  className?: string;
  children: ReactNode;
} & Record<`data-${string}`, string | number | undefined> & { title?: string }) {
  if (reserve === undefined)
    return (
      <Tag className={className} {...rest}>
        {children}
      </Tag>
    );
  return (
    <Tag
      className={className ? `${className} reserving` : 'reserving'}
      data-reserve={reserve}
      {...rest}
    >
      <span>{children}</span>
    </Tag>
  );
}
