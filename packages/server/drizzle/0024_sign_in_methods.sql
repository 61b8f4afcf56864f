-- Sign-in methods beyond the password (src/auth/oidc.ts, two-factor.ts, sms.ts; decisions 0056, 0057):
-- external identities, OpenID Connect flows in progress, per-account sign-in settings (single-session
-- mode, TOTP, verified phone), recovery codes and second-factor challenges. A session ended by a
-- newer sign-in in single-session mode keeps why, so it answers 5003 instead of 10.
ALTER TABLE "sessions" ADD COLUMN IF NOT EXISTS "revoked_reason" text;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "account_identities" (
  "id" serial PRIMARY KEY,
  "account_id" integer NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
  "provider" text NOT NULL,
  "issuer" text NOT NULL,
  "subject" text NOT NULL,
  "label" text NOT NULL DEFAULT '',
  "bound_at" timestamptz NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "account_identities_subject_uq" ON "account_identities" ("provider", "issuer", "subject");
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "account_identities_account_uq" ON "account_identities" ("account_id", "provider");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "oidc_flows" (
  "id" bigserial PRIMARY KEY,
  "state" text NOT NULL,
  "browser_hash" text NOT NULL,
  "provider" text NOT NULL,
  "account_id" integer REFERENCES "accounts"("id") ON DELETE CASCADE,
  "code_verifier" text NOT NULL,
  "nonce" text NOT NULL,
  "redirect_uri" text NOT NULL,
  "remember" boolean NOT NULL DEFAULT false,
  "created_at" timestamptz NOT NULL,
  "expires_at" timestamptz NOT NULL,
  "used_at" timestamptz
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "oidc_flows_state_uq" ON "oidc_flows" ("state");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "oidc_flows_expires_idx" ON "oidc_flows" ("expires_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "account_security" (
  "account_id" integer PRIMARY KEY REFERENCES "accounts"("id") ON DELETE CASCADE,
  "single_session" boolean NOT NULL DEFAULT false,
  "totp_secret" text,
  "totp_enabled_at" timestamptz,
  "totp_last_step" bigint,
  "totp_pending_secret" text,
  "totp_pending_at" timestamptz,
  "phone_region" text,
  "phone_number" text,
  "phone_verified_at" timestamptz
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "recovery_codes" (
  "id" bigserial PRIMARY KEY,
  "account_id" integer NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
  "code_hash" text NOT NULL,
  "created_at" timestamptz NOT NULL,
  "used_at" timestamptz
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "recovery_codes_account_idx" ON "recovery_codes" ("account_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sign_in_challenges" (
  "id" bigserial PRIMARY KEY,
  "token_hash" text NOT NULL,
  "account_id" integer NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
  "persistent" boolean NOT NULL DEFAULT false,
  "created_at" timestamptz NOT NULL,
  "expires_at" timestamptz NOT NULL,
  "used_at" timestamptz
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sign_in_challenges_token_uq" ON "sign_in_challenges" ("token_hash");
