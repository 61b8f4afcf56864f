import { WifiOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../layout/PageTitle.tsx';

export function AuthCard({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  useDocumentTitle(title);
  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'linear-gradient(135deg, #001529 0%, #003a70 100%)',
        padding: 16,
      }}
    >
      <div style={{ width: 400, maxWidth: '100%' }}>
        <div style={{ textAlign: 'center', marginBottom: 20, color: '#fff' }}>
          <div style={{ fontSize: 28, fontWeight: 600, letterSpacing: 0.5 }}>
            <WifiOutlined style={{ marginRight: 10 }} />
            {t('app.name')}
          </div>
          <div style={{ opacity: 0.75 }}>{t('app.tagline')}</div>
        </div>
        {/*
          A plain box rather than antd's Card and Typography: those bring tabs, menus and the
          copy/edit machinery into the sign-in screens' download (bench/web-sizes.ts).
        */}
        <main
          style={{
            background: token.colorBgContainer,
            borderRadius: token.borderRadiusLG,
            padding: 24,
            color: token.colorText,
            fontSize: token.fontSize,
          }}
        >
          <h1
            style={{
              marginTop: 0,
              marginBottom: 20,
              fontSize: token.fontSizeHeading4,
              lineHeight: token.lineHeightHeading4,
              fontWeight: token.fontWeightStrong,
              color: token.colorTextHeading,
            }}
            data-testid="page-title"
          >
            {title}
          </h1>
          {children}
          {footer ? <div style={{ marginTop: 8, textAlign: 'center' }}>{footer}</div> : null}
        </main>
      </div>
    </div>
  );
}
