import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * How many children of a one-line, wrapping flex box fit on its first line: the rest wrapped onto
 * lines the box does not show. Measured again whenever the box changes size (the window, a
 * neighbour growing) or `revision` changes (other children).
 */
export function useFittingCount(ref: RefObject<HTMLElement | null>, revision: string): number {
  const [fitting, setFitting] = useState(Number.POSITIVE_INFINITY);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => {
      const items = [...box.children] as HTMLElement[];
      const top = items[0]?.offsetTop ?? 0;
      const wrapped = items.findIndex((el) => el.offsetTop > top);
      setFitting(wrapped < 0 ? items.length : wrapped);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [ref, revision]);
  return fitting;
}
