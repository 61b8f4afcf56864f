import {
  apiKeyMayCall,
  Codes,
  DEMO_PROJECT_IDS,
  type ErrorCode,
  isWriteMethod,
  subordinateBlocked,
  visitorMayWrite,
} from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { hashSecret, newSecret } from '../../src/auth/tokens.ts';
import {
  accounts,
  apiKeys,
  projectDepartures,
  projectMembers,
  projects,
  projectTransfers,
  shareOffers,
} from '../../src/db/schema.ts';
import { DEMO_OWNER_ACCOUNT } from '../../src/seed.ts';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import type { HttpClient, TestServer } from '../helpers/harness.ts';
import type { ProjectWorld, RouteAccess } from './resources.ts';

/** Who calls, and on which project: the rows of the permission matrix. */
export type ActorName =
  | 'owner'
  | 'read-write member'
  | 'read-only member'
  | 'invitee (accepted a read-only invitation)'
  | 'invitee (accepted a read-write invitation made before invitations were read-only)'
  | 'offered a read-write share, not accepted'
  | 'offered the project by transfer, not accepted'
  | 'expired member'
  | 'expired member, row removed by the expiry job'
  | 'removed member (share deleted, unbound or transferred away)'
  | 'stranger'
  | 'owner, project id that does not exist'
  | 'any account, demo project'
  | 'no session'
  | 'subordinate administrator, read-write grant'
  | 'subordinate administrator, read-only grant'
  | 'subordinate visitor, read-only grant'
  | "owner's API key, read-write"
  | "owner's API key, read-only"
  | "owner's API key, limited to another project";

/** Actors whose answers are another actor's, then the access gate's (expectedFor). */
type GatedActor =
  | 'subordinate administrator, read-write grant'
  | 'subordinate administrator, read-only grant'
  | 'subordinate visitor, read-only grant'
  | "owner's API key, read-write"
  | "owner's API key, read-only"
  | "owner's API key, limited to another project";

/** 'ok' = code 0; otherwise the catalogue code the call must answer (its HTTP status follows). */
export type Outcome = 'ok' | ErrorCode;

const {
  READ_ONLY,
  FORBIDDEN,
  PROJECT_EXPIRED,
  PROJECT_ID,
  PROJECT_INVALID,
  DEMO_PROJECT,
  TOKEN_MISSING,
  TRANSFER_NOT_MANAGER: NOT_MANAGER,
} = Codes;

/** The matrix: what each actor gets for a read, a write and an owner-only action. */
/**
 * The matrix: what each actor gets for a read, a write, an owner-only action, a sharing action
 * (owner only; read-only callers hear 5032), leaving a project (members only) and a transfer
 * (2103 for anyone but the owner who can see the project).
 */
const MATRIX: Record<Exclude<ActorName, GatedActor>, Record<RouteAccess, Outcome>> = {
  owner: { read: 'ok', write: 'ok', owner: 'ok', share: 'ok', member: FORBIDDEN, transfer: 'ok' },
  'read-write member': {
    read: 'ok',
    write: 'ok',
    owner: FORBIDDEN,
    share: FORBIDDEN,
    member: 'ok',
    transfer: NOT_MANAGER,
  },
  'read-only member': {
    read: 'ok',
    write: READ_ONLY,
    owner: FORBIDDEN,
    share: READ_ONLY,
    member: 'ok',
    transfer: NOT_MANAGER,
  },
  // SPEC.md §6: invitation projects are read-only to invitees, whatever the invitation said.
  'invitee (accepted a read-only invitation)': {
    read: 'ok',
    write: READ_ONLY,
    owner: FORBIDDEN,
    share: READ_ONLY,
    member: 'ok',
    transfer: NOT_MANAGER,
  },
  'invitee (accepted a read-write invitation made before invitations were read-only)': {
    read: 'ok',
    write: READ_ONLY,
    owner: FORBIDDEN,
    share: READ_ONLY,
    member: 'ok',
    transfer: NOT_MANAGER,
  },
  // An offer grants nothing until it is accepted (docs/decisions/0022): a stranger's answers.
  'offered a read-write share, not accepted': {
    read: PROJECT_ID,
    write: PROJECT_ID,
    owner: PROJECT_ID,
    share: PROJECT_ID,
    member: PROJECT_ID,
    transfer: PROJECT_ID,
  },
  'offered the project by transfer, not accepted': {
    read: PROJECT_ID,
    write: PROJECT_ID,
    owner: PROJECT_ID,
    share: PROJECT_ID,
    member: PROJECT_ID,
    transfer: PROJECT_ID,
  },
  'expired member': {
    read: PROJECT_EXPIRED,
    write: PROJECT_EXPIRED,
    owner: PROJECT_EXPIRED,
    share: PROJECT_EXPIRED,
    member: PROJECT_EXPIRED,
    transfer: PROJECT_EXPIRED,
  },
  'expired member, row removed by the expiry job': {
    read: PROJECT_EXPIRED,
    write: PROJECT_EXPIRED,
    owner: PROJECT_EXPIRED,
    share: PROJECT_EXPIRED,
    member: PROJECT_EXPIRED,
    transfer: PROJECT_EXPIRED,
  },
  'removed member (share deleted, unbound or transferred away)': {
    read: PROJECT_INVALID,
    write: PROJECT_INVALID,
    owner: PROJECT_INVALID,
    share: PROJECT_INVALID,
    member: PROJECT_INVALID,
    transfer: PROJECT_INVALID,
  },
  stranger: {
    read: PROJECT_ID,
    write: PROJECT_ID,
    owner: PROJECT_ID,
    share: PROJECT_ID,
    member: PROJECT_ID,
    transfer: PROJECT_ID,
  },
  'owner, project id that does not exist': {
    read: PROJECT_ID,
    write: PROJECT_ID,
    owner: PROJECT_ID,
    share: PROJECT_ID,
    member: PROJECT_ID,
    transfer: PROJECT_ID,
  },
  'any account, demo project': {
    read: 'ok',
    write: DEMO_PROJECT,
    owner: DEMO_PROJECT,
    share: DEMO_PROJECT,
    member: DEMO_PROJECT,
    transfer: DEMO_PROJECT,
  },
  'no session': {
    read: TOKEN_MISSING,
    write: TOKEN_MISSING,
    owner: TOKEN_MISSING,
    share: TOKEN_MISSING,
    member: TOKEN_MISSING,
    transfer: TOKEN_MISSING,
  },
};

// Subordinate accounts and API keys (docs/decisions/0058, 0059): the right of the account they stand
// for, then the access gate on top of it (expectedFor).
export const EXPECTED: Record<ActorName, Record<RouteAccess, Outcome>> = {
  ...MATRIX,
  'subordinate administrator, read-write grant': MATRIX['read-write member'],
  'subordinate administrator, read-only grant': MATRIX['read-only member'],
  'subordinate visitor, read-only grant': MATRIX['read-only member'],
  "owner's API key, read-write": MATRIX.owner,
  "owner's API key, read-only": MATRIX.owner,
  "owner's API key, limited to another project": MATRIX.owner,
};

/** The `:action` of a concrete path called on a pattern ('/…/actions/:action' → 'reboot'). */
function actionOf(pattern: string, path: string): string | undefined {
  const p = pattern.replace(/^\/api\/v1/, '').split('/');
  const i = p.indexOf(':action');
  return i < 0 ? undefined : path.split('?')[0].split('/')[i];
}

/**
 * What the actor gets for one route: the matrix, after the access gate of api-keys/gate.ts — an API
 * key reaches only openapi routes (5090), a read-only key only reads (5440), a key limited to other
 * projects none of this one (5442); a visitor changes nothing (5443), a subordinate account none of
 * the administrator-blocked operations (5444).
 */
export function expectedFor(
  actor: ActorName,
  route: { method: string; pattern: string; access: RouteAccess },
  path: string,
): Outcome {
  const base = EXPECTED[actor][route.access];
  const write = isWriteMethod(route.method);
  if (actor.startsWith("owner's API key")) {
    if (!apiKeyMayCall(route.method, route.pattern)) return Codes.WEB_ONLY;
    if (actor === "owner's API key, read-only" && write) return Codes.API_KEY_READ_ONLY;
    if (actor === "owner's API key, limited to another project") return Codes.API_KEY_PROJECT;
    return base;
  }
  if (actor.startsWith('subordinate') && write) {
    if (actor === 'subordinate visitor, read-only grant' && !visitorMayWrite(route.method, route.pattern)) {
      return Codes.VISITOR_READ_ONLY;
    }
    if (subordinateBlocked(route.method, route.pattern, actionOf(route.pattern, path))) {
      return Codes.SUBORDINATE_BLOCKED;
    }
  }
  return base;
}

export const ACTORS = Object.keys(EXPECTED) as ActorName[];

/** A project id no test creates (identity ids start at 1,000,000 and grow by one). */
export const MISSING_PROJECT_ID = 987_654_321;

export interface Cast {
  owner: TestAccount;
  readWrite: TestAccount;
  readOnly: TestAccount;
  inviteeRead: TestAccount;
  inviteeReadWrite: TestAccount;
  /** Has a read-write share offer of every shared project, not accepted. */
  offered: TestAccount;
  /** Every shared project is offered to it by transfer, not accepted. */
  transferee: TestAccount;
  expired: TestAccount;
  /** Lost the project to the expiry job: no member row, an 'expired' departure. */
  expiredGone: TestAccount;
  /** Lost the project to a delete, an unbind or a transfer: a 'removed' departure. */
  removed: TestAccount;
  stranger: TestAccount;
  demoOwnerId: number;
  subordinateReadWrite: TestAccount;
  subordinateReadOnly: TestAccount;
  visitor: TestAccount;
  keyReadWrite: HttpClient;
  keyRead: HttpClient;
  keyElsewhere: HttpClient;
}

/** A subordinate account of `parent` (level 1 administrator, 0 visitor), signed in. */
async function subordinateOf(server: TestServer, parent: TestAccount, level: 0 | 1): Promise<TestAccount> {
  const account = await createAccount(server);
  await server.database.db
    .update(accounts)
    .set({ parentId: parent.id, level })
    .where(eq(accounts.id, account.id));
  return account;
}

/** A Bearer client of an API key of `owner`, straight in the database. */
async function keyOf(
  server: TestServer,
  owner: TestAccount,
  scope: 'read' | 'read-write',
  projectIds: number[] | null = null,
): Promise<HttpClient> {
  const secret = newSecret();
  await server.database.db.insert(apiKeys).values({
    accountId: owner.id,
    name: `contract-${scope}`,
    prefix: secret.slice(0, 8),
    keyHash: hashSecret(secret),
    scope,
    projectIds,
    ratePerMinute: 100_000,
  });
  const client = server.client();
  client.bearer = secret;
  return client;
}

export async function createCast(server: TestServer): Promise<Cast> {
  const [demoOwner] = await server.database.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.account, DEMO_OWNER_ACCOUNT));
  const owner = await createAccount(server);
  const [elsewhere] = await server.database.db
    .insert(projects)
    .values({ ownerId: owner.id, name: 'key-elsewhere', scenario: 'hotel' })
    .returning({ id: projects.id });
  return {
    owner,
    subordinateReadWrite: await subordinateOf(server, owner, 1),
    subordinateReadOnly: await subordinateOf(server, owner, 1),
    visitor: await subordinateOf(server, owner, 0),
    keyReadWrite: await keyOf(server, owner, 'read-write'),
    keyRead: await keyOf(server, owner, 'read'),
    keyElsewhere: await keyOf(server, owner, 'read-write', [elsewhere.id]),
    readWrite: await createAccount(server),
    readOnly: await createAccount(server),
    inviteeRead: await createAccount(server),
    inviteeReadWrite: await createAccount(server),
    offered: await createAccount(server),
    transferee: await createAccount(server),
    expired: await createAccount(server),
    expiredGone: await createAccount(server),
    removed: await createAccount(server),
    stranger: await createAccount(server),
    demoOwnerId: demoOwner.id,
  };
}

let projectCounter = 0;

/** A fresh project of cast.owner with every kind of member, inserted straight into the database. */
export async function createSharedProject(server: TestServer, cast: Cast): Promise<ProjectWorld> {
  const { db } = server.database;
  const now = server.clock.now().getTime();
  const hour = 3600 * 1000;
  const [project] = await db
    .insert(projects)
    .values({ ownerId: cast.owner.id, name: `ct${++projectCounter}`, scenario: 'hotel', location: 'Here' })
    .returning({ id: projects.id });
  const accepted = new Date(now - hour);
  await db.insert(projectMembers).values([
    { projectId: project.id, accountId: cast.readWrite.id, permission: 'rw', acceptedAt: accepted },
    {
      projectId: project.id,
      accountId: cast.readOnly.id,
      permission: 'r',
      acceptedAt: accepted,
      expiresAt: new Date(now + 24 * hour),
    },
    {
      projectId: project.id,
      accountId: cast.inviteeRead.id,
      permission: 'r',
      acceptedAt: accepted,
      via: 'invite',
    },
    {
      projectId: project.id,
      accountId: cast.inviteeReadWrite.id,
      permission: 'rw',
      acceptedAt: accepted,
      via: 'invite',
    },
    ...(
      [
        [cast.subordinateReadWrite, 'rw'],
        [cast.subordinateReadOnly, 'r'],
        [cast.visitor, 'r'],
      ] as const
    ).map(([account, permission]) => ({
      projectId: project.id,
      accountId: account.id,
      permission,
      acceptedAt: accepted,
      via: 'subordinate' as const,
    })),
    {
      projectId: project.id,
      accountId: cast.expired.id,
      permission: 'rw',
      acceptedAt: accepted,
      expiresAt: new Date(now - 1000),
    },
  ]);
  await db.insert(shareOffers).values({
    projectId: project.id,
    accountId: cast.offered.id,
    permission: 'rw',
    offeredBy: cast.owner.id,
    createdAt: new Date(now - hour),
  });
  await db.insert(projectTransfers).values({
    projectId: project.id,
    fromAccountId: cast.owner.id,
    toAccountId: cast.transferee.id,
    createdAt: new Date(now - hour),
  });
  await db.insert(projectDepartures).values([
    { projectId: project.id, accountId: cast.expiredGone.id, reason: 'expired', at: new Date(now - 1000) },
    { projectId: project.id, accountId: cast.removed.id, reason: 'removed', at: new Date(now - 1000) },
  ]);
  return { server, projectId: project.id, ownerId: cast.owner.id };
}

/**
 * The project an actor's test sets up (`world`: the resource's setup runs in it), the project id the
 * call names (the same, except for the id that does not exist) and the client that calls.
 */
export async function worldFor(
  server: TestServer,
  cast: Cast,
  actor: ActorName,
): Promise<{ world: ProjectWorld; calledProjectId: number; client: HttpClient }> {
  if (actor === 'any account, demo project') {
    const world = { server, projectId: DEMO_PROJECT_IDS.WLAN, ownerId: cast.demoOwnerId };
    return { world, calledProjectId: world.projectId, client: cast.stranger.client };
  }
  const world = await createSharedProject(server, cast);
  const clients: Record<Exclude<ActorName, 'any account, demo project'>, HttpClient> = {
    owner: cast.owner.client,
    'read-write member': cast.readWrite.client,
    'read-only member': cast.readOnly.client,
    'invitee (accepted a read-only invitation)': cast.inviteeRead.client,
    'invitee (accepted a read-write invitation made before invitations were read-only)':
      cast.inviteeReadWrite.client,
    'offered a read-write share, not accepted': cast.offered.client,
    'offered the project by transfer, not accepted': cast.transferee.client,
    'expired member': cast.expired.client,
    'expired member, row removed by the expiry job': cast.expiredGone.client,
    'removed member (share deleted, unbound or transferred away)': cast.removed.client,
    stranger: cast.stranger.client,
    'owner, project id that does not exist': cast.owner.client,
    'no session': server.client(),
    'subordinate administrator, read-write grant': cast.subordinateReadWrite.client,
    'subordinate administrator, read-only grant': cast.subordinateReadOnly.client,
    'subordinate visitor, read-only grant': cast.visitor.client,
    "owner's API key, read-write": cast.keyReadWrite,
    "owner's API key, read-only": cast.keyRead,
    "owner's API key, limited to another project": cast.keyElsewhere,
  };
  const calledProjectId =
    actor === 'owner, project id that does not exist' ? MISSING_PROJECT_ID : world.projectId;
  return { world, calledProjectId, client: clients[actor] };
}
