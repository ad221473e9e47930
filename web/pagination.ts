// Which page links a result page shows: previous, a window of numbers around the current page, next.

export interface PageLinks {
  previous?: number;
  next?: number;
  /** Page numbers to list, ascending, always including the current one. */
  numbers: number[];
}

export function pageLinks(page: number, pages: number, window = 2): PageLinks {
  if (pages <= 1) return { numbers: pages === 1 ? [1] : [] };
  const first = Math.max(1, Math.min(page - window, pages - 2 * window));
  const last = Math.min(pages, first + 2 * window);
  const numbers: number[] = [];
  for (let n = first; n <= last; n++) numbers.push(n);
  return {
    ...(page > 1 ? { previous: page - 1 } : {}),
    ...(page < pages ? { next: page + 1 } : {}),
    numbers,
  };
}
