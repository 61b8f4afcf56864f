import { Typography } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The browser tab shows the screen's title and the product's name. */
export function useDocumentTitle(title: string): void {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
}

export function PageTitle({ title, extra }: { title: string; extra?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <div
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        flexWrap: 'wrap',
        marginBottom: 16,
        gap: 12,
      }}
    >
      {/* The title keeps its words whole; on a narrow screen the buttons move below it. */}
      <Typography.Title
        level={4}
        style={{ margin: 0, flex: '1 1 auto', minWidth: 0 }}
        data-testid="page-title"
      >
        {title}
      </Typography.Title>
      {extra ? <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>{extra}</div> : null}
    </div>
  );
}
