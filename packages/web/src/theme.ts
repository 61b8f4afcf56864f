import type { ThemeConfig } from 'antd';

/**
 * Ant Design's defaults miss WCAG 2 AA contrast (4.5:1 for body text): the primary blue #1677ff
 * gives 4.1:1 with white, secondary text #8c8c8c 3.4:1, the empty-state grey 1.8:1, the status
 * colours under 3:1. These are the nearest darker shades of the same palettes; each reaches 4.5:1
 * on white and on the light tints antd derives from it. Preset tags write their text in the
 * palette's 7th shade on its 1st (green 3.4:1, gold 2.8:1): global.css gives them the 8th
 * shade (9th for gold). e2e/accessibility.test.ts holds us to it.
 */
export const THEME: ThemeConfig = {
  token: {
    borderRadius: 6,
    colorPrimary: '#0958d9',
    colorLink: '#0958d9',
    colorSuccess: '#237804',
    colorWarning: '#ad4e00',
    colorError: '#cf1322',
    colorInfo: '#0958d9',
    colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextQuaternary: 'rgba(0, 0, 0, 0.58)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.58)',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
  },
};
