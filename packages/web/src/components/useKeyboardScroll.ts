import { type RefObject, useEffect } from 'react';

/**
 * A table that scrolls sideways (a phone) but holds nothing focusable cannot be scrolled from the
 * keyboard (axe: scrollable-region-focusable). Its scroll box joins the tab order as a named
 * region, so the arrow keys scroll it (whether it overflows depends on the width, which can change
 * at any time, so it joins either way).
 */
export function useKeyboardScroll(container: RefObject<HTMLElement | null>, label: string): void {
  useEffect(() => {
    for (const box of container.current?.querySelectorAll<HTMLElement>(
      '.ant-table-content, .ant-table-body',
    ) ?? []) {
      box.tabIndex = 0;
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', label);
    }
  });
}
