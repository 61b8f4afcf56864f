import { useQuery } from '@tanstack/react-query';
import { Col } from 'antd';
import { identityApi, SECURITY_KEY } from './identityApi.ts';
import { PhoneCard } from './PhoneCard.tsx';
import { SignInMethodsCard } from './SignInMethodsCard.tsx';
import { TwoFactorCard } from './TwoFactorCard.tsx';

/** The account page's sign-in cards (bound accounts, single session, two-factor, phone). */
export function SecurityCards() {
  const security = useQuery({ queryKey: SECURITY_KEY, queryFn: identityApi.security });
  if (!security.data) return null;
  return (
    <>
      <Col xs={24} xl={14}>
        <SignInMethodsCard security={security.data} />
      </Col>
      <Col xs={24} xl={10}>
        <TwoFactorCard security={security.data} />
      </Col>
      <Col xs={24} xl={10}>
        <PhoneCard security={security.data} />
      </Col>
    </>
  );
}
