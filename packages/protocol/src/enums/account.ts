/** SPEC.md §6 account role codes. */
export const AccountRole = { NORMAL: 0, ENGINEER: 1, MANUFACTURER: 2, OPERATOR: 3 } as const;
export type AccountRole = (typeof AccountRole)[keyof typeof AccountRole];

/** SPEC.md §6 access type: web (cookie) or openapi (API key / bearer token). */
export const AccessType = { WEB: 'web', OPENAPI: 'openapi' } as const;
export type AccessType = (typeof AccessType)[keyof typeof AccessType];

/** SPEC.md §4 global loading states. */
export const LoadState = {
  END: 'end',
  SAVING: 'saving',
  LOADING: 'loading',
  UPLOADING: 'uploading',
  JUMPING: 'jumping',
} as const;
export type LoadState = (typeof LoadState)[keyof typeof LoadState];
