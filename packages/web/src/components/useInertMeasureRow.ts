import { type RefObject, useEffect } from 'react';

/**
 * antd's table measures its columns with a hidden copy of the header row (aria-hidden), and the
 * copy of a row-selection table's "select all" checkbox can still take the focus (axe:
 * aria-hidden-focus). `inert` takes the copy out of the tab order; the visible header keeps its own.
 */
export function useInertMeasureRow(container: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    for (const row of container.current?.querySelectorAll('.ant-table-measure-row') ?? []) {
      row.setAttribute('inert', '');
    }
  });
}
