import { useTranslation } from 'react-i18next';
import { lastError, useStore } from '../state/store.ts';

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

/** Keeps the last error text in the page for assistive tech and end-to-end tests. */
export function LastError() {
  const text = useStore(lastError);
  const { t } = useTranslation();
  return (
    <div
      data-testid="last-error"
      role="status"
      aria-live="polite"
      aria-label={t('error.lastError')}
      style={visuallyHidden}
    >
      {text}
    </div>
  );
}
