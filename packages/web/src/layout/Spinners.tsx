import { Spin } from 'antd';

/** The whole window while the session or a public screen loads. */
export function FullPageSpin() {
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Spin size="large" />
    </div>
  );
}

/** The content area while a screen's code loads: the shell stays in place. */
export function ContentSpin() {
  return (
    <div
      style={{ minHeight: 240, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      data-testid="content-loading"
    >
      <Spin size="large" />
    </div>
  );
}
