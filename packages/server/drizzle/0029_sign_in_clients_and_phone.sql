-- Decision 0068. The kind of client a session belongs to (the web console, or another app that
-- says so at sign-in): in single-session mode a sign-in while the other kind is online answers 69.
ALTER TABLE sessions ADD COLUMN client text NOT NULL DEFAULT 'web';
--> statement-breakpoint
-- "Sign in here anyway", carried through a social sign-in's redirect.
ALTER TABLE oidc_flows ADD COLUMN force boolean NOT NULL DEFAULT false;
--> statement-breakpoint
-- A verified phone number signs in to one account: where two accounts verified the same number,
-- the later verification keeps it.
UPDATE account_security a
SET phone_region = NULL, phone_number = NULL, phone_verified_at = NULL
WHERE a.phone_verified_at IS NOT NULL
  AND EXISTS (
    SELECT 1 FROM account_security b
    WHERE b.phone_region = a.phone_region
      AND b.phone_number = a.phone_number
      AND b.phone_verified_at IS NOT NULL
      AND (b.phone_verified_at, b.account_id) > (a.phone_verified_at, a.account_id)
  );
--> statement-breakpoint
CREATE UNIQUE INDEX account_security_phone_uq ON account_security (phone_region, phone_number)
  WHERE phone_verified_at IS NOT NULL;
