import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { loadState, useStore } from '../state/store.ts';

/** Fullscreen overlay over every route while the global load state is not 'end'. */
export function LoadingOverlay() {
  const state = useStore(loadState);
  const { t } = useTranslation();
  if (state === 'end') return null;
  return (
    <div
      data-testid="loading-overlay"
      data-state={state}
      role="alertdialog"
      aria-busy="true"
      aria-label={t(`load.${state}`)}
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 3000,
        background: 'rgba(255,255,255,0.65)',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 12,
      }}
    >
      <Spin size="large" />
      <div style={{ fontSize: 15, color: 'rgba(0,0,0,0.75)' }}>{t(`load.${state}`)}</div>
    </div>
  );
}
