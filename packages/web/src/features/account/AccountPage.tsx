import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Row, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/index.ts';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { useSession } from '../../session/session.ts';
import { errorText } from '../../state/feedback.ts';
import { SecurityCards } from '../identity/SecurityCards.tsx';
import { ApiKeysCard } from './ApiKeysCard.tsx';
import { ACCOUNT_KEY } from './accountCache.ts';
import { PasswordCard } from './PasswordCard.tsx';
import { ProfileCard } from './ProfileCard.tsx';
import { ScenariosCard } from './ScenariosCard.tsx';

export function AccountPage() {
  const { t } = useTranslation();
  const session = useSession();
  const account = useQuery({ queryKey: ACCOUNT_KEY, queryFn: api.account });
  // The session carries the same AccountView: show it while /account loads (or if it fails).
  const data = account.data ?? session.data?.account;
  return (
    <>
      <PageTitle title={t('account.title')} />
      {data ? (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={14}>
            <ProfileCard account={data} />
          </Col>
          <Col xs={24} xl={10}>
            <PasswordCard />
          </Col>
          <Col xs={24} xl={10}>
            <ScenariosCard />
          </Col>
          <Col xs={24} xl={14}>
            <ApiKeysCard />
          </Col>
          <SecurityCards />
        </Row>
      ) : account.isError ? (
        <Alert type="error" showIcon title={t('common.loadFailed')} description={errorText(account.error)} />
      ) : (
        <Card>
          <Skeleton active />
        </Card>
      )}
    </>
  );
}
