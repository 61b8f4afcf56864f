import { Grid } from 'antd';

/**
 * Below antd's `md` breakpoint (768 px): the layouts that need the width — the sider, fixed table
 * columns, side-by-side toolbars — give way. Before the first measurement antd reports no
 * breakpoint at all, which reads as a phone only when the window really is narrow.
 */
export function useIsPhone(): boolean {
  const screens = Grid.useBreakpoint();
  if (screens.md === undefined) return typeof window !== 'undefined' && window.innerWidth < 768;
  return !screens.md;
}
