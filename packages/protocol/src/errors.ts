/**
 * The error catalogue of SPEC.md §8: every result code the product answers with, its en-US
 * message and the HTTP status the API uses for it. Codes >= 5000 are ours: SPEC.md names
 * these messages without numbers (docs/error-codes.md lists them).
 */
export interface CatalogueEntry {
  /** en-US message shown to the user. */
  message: string;
  /** HTTP status used when the API answers with this code. */
  status: number;
}

const e = (message: string, status = 400): CatalogueEntry => ({ message, status });

export const ERROR_CATALOGUE = {
  0: e('Success', 200),
  [-99]: e('Set failed', 500),
  1: e('General error', 400),
  2: e('Model error', 400),
  3: e('Signature error', 401),
  4: e('Account cannot be empty', 400),
  // 503: the database cannot be reached now (an outage); the client may try again.
  5: e('Database error', 503),
  6: e('Password error', 400),
  7: e('Signature error', 401),
  9: e('Token missing, please log in', 401),
  10: e('Your session has expired, please log in again', 401),
  11: e('Verification error', 400),
  12: e('Wrong or expired verification code', 400),
  13: e('User already exists', 409),
  14: e('The company name can be changed only once per year', 409),
  15: e('The company location can be changed only once per year', 409),
  16: e('Form data error', 400),
  17: e('Database error', 500),
  18: e('Cache error', 500),
  19: e('JSON error', 400),
  20: e('File error', 400),
  21: e('The project is already shared with this account', 409),
  22: e('The share account does not exist', 404),
  23: e('Points not enough', 402),
  24: e('The same SSID already exists', 409),
  25: e('Failed to get token', 500),
  26: e('The wireless network is in use', 409),
  27: e('RF optimising, continue after completion', 409),
  28: e('A project cannot be shared to yourself', 400),
  30: e('Project id error', 404),
  31: e('No configuration file', 404),
  34: e('RF optimisation timed out', 504),
  36: e('The device is offline', 409),
  37: e('Unsupported version', 400),
  38: e('No new version', 409),
  40: e('The maximum number of wireless networks has been reached', 409),
  47: e('Terminal number error', 400),
  50: e('Bridge distance error', 400),
  51: e('Verification codes are sent too often; try again in an hour', 429),
  52: e('Verification codes are sent too often; try again tomorrow', 429),
  53: e('Verification codes are sent too often; try again in a minute', 429),
  59: e('RF optimisation time rule error', 400),
  61: e('The maximum number of read-only shares has been reached', 409),
  62: e('The maximum number of read-write shares has been reached', 409),
  63: e('This share would overwrite an existing item', 409),
  64: e('The invite code has expired', 410),
  69: e('Another app is online', 409),
  70: e('The password has been modified, please log in again', 401),
  71: e('The device is upgrading', 409),
  73: e('The project is invalid for this account', 403),
  74: e('The project has expired for this account', 403),
  75: e('Too many failed verification attempts; try again in 30 minutes', 429),
  76: e('Local management mode operation not supported', 409),
  79: e('Failed to upload the map', 400),
  80: e('Too many wrong passwords; login is locked for 30 minutes', 429),
  85: e('The current version is not supported', 400),
  88: e('The WLAN already exists', 409),
  89: e('The same SSID already exists in the mesh network', 409),
  91: e('The maximum number of clients has been reached', 409),
  92: e('The project SSID is too short', 400),
  93: e('Cable-free (mesh) and traditional WLAN devices cannot be mixed', 409),
  101: e('LAN IP error', 400),
  102: e('LAN IP or VLAN error', 400),
  103: e('The address is the same as the LAN IP', 409),
  104: e('The address is the same as a VLAN IP', 409),
  105: e('IP address conflict', 409),
  106: e('MAC address conflict', 409),
  107: e('The addresses are not on the same network', 400),
  108: e('The address is outside the DHCP range', 400),
  109: e('The end IP must be greater than the start IP', 400),
  110: e('Primary and secondary DNS must differ', 400),
  111: e('The VLAN id already exists', 409),
  112: e('The VLAN id must be an integer', 400),
  113: e('The VLAN segment clashes with the LAN', 409),
  114: e('The VLAN segment clashes with the guest network', 409),
  115: e('The VLAN segment clashes with PPPoE', 409),
  116: e('The VLAN segment clashes with PPTP', 409),
  117: e('The VLAN segment clashes with L2TP', 409),
  118: e('The VLAN segment clashes with another VLAN', 409),
  119: e('The VLAN segment clashes with the WAN', 409),
  120: e('VLAN name error', 400),
  121: e('The WAN IP and its gateway must be on the same segment', 400),
  122: e('The WAN and LAN must be on different segments', 409),
  123: e('The WAN clashes with PPTP', 409),
  124: e('The WAN clashes with L2TP', 409),
  125: e('The WAN clashes with the guest network', 409),
  126: e('The WAN clashes with PPPoE', 409),
  127: e('The WAN clashes with a VLAN', 409),
  135: e('Too few devices with this SSID', 409),
  136: e('The devices for this SSID are full', 409),
  164: e('Default router configuration', 409),
  165: e('Multiple configuration in extension mode', 409),
  320: e('Remote management failed', 502),
  321: e('Remote login timed out', 504),
  404: e('Network error, try again later', 404),
  410: e('The device has been deleted', 410),
  414: e('Wi-Fi conflict', 409),
  2000: e('Server error', 500),
  2010: e('Repeated clicks, please wait', 429),
  2101: e('Permission transfer failed: the target account does not exist', 404),
  2102: e('Permission transfer failed: the project cannot be transferred to its current manager', 409),
  2103: e('Permission transfer failed: you do not manage this project', 403),
  3000: e('Disk formatting', 409),
  3001: e('Disk formatting', 409),
  3002: e('Disk formatting', 409),
  // Ours (>= 5000): messages SPEC.md §8 gives without a number.
  5001: e('Incorrect account or password', 401),
  // 5002 and 5036 are no longer answered: a wrong or expired code answers 12 (SPEC.md §8).
  5002: e('Wrong verification code', 400),
  5003: e('Your account has logged in elsewhere', 401),
  5004: e('The project count limit has been reached', 409),
  5005: e('The device is already bound', 409),
  5006: e('Failed to bind the device', 400),
  5007: e('The management password is missing or the same as the authentication password', 400),
  5008: e('Only one gateway and one cable-free router are allowed per project', 409),
  5009: e('Duplicate SSID', 409),
  5010: e('AI optimisation needs the master node online', 409),
  5011: e('Only one of DHCP relay, snooping or server can be enabled at a time', 409),
  5012: e('The interface is in use', 409),
  5013: e('The VLAN does not exist', 404),
  5014: e('The default static route cannot be changed', 409),
  5015: e('Aggregation group restriction', 409),
  5016: e('Failed to upload', 400),
  5017: e('The image must be at most 10 MB', 413),
  5018: e('Invalid Excel file', 400),
  5019: e('The file contains no data', 400),
  5020: e('Too many devices in the file', 400),
  5021: e('The model already exists', 409),
  5022: e('Fewer than 2 online devices cannot optimise', 409),
  5023: e('Failed to obtain the remote management URL', 502),
  5024: e('Remote management authentication timed out', 504),
  5025: e('Command delivery timed out', 504),
  5026: e('Failed to bind the social account', 400),
  5030: e('You do not have permission for this operation', 403),
  5031: e('Demo projects cannot be configured', 403),
  5032: e('This project is read-only for your account', 403),
  5033: e('Not found', 404),
  5034: e('Too many requests, try again later', 429),
  5035: e('The request origin is not allowed', 403),
  5036: e('The verification code has expired', 400),
  5037: e('The custom scenario limit (20) has been reached', 409),
  5038: e('The name is already in use', 409),
  5039: e('Inconsistent passwords', 400),
  5040: e('The file is too large', 413),
  5041: e('The file format is not allowed', 400),
  5042: e('The network segments clash', 409),
  5043: e('The destination network already exists', 409),
  5044: e('This name is reserved', 400),
  5045: e('At most 5 countries can be shown on the data screen', 409),
  5046: e('The device is rebooting or upgrading, try again later', 409),
  5047: e('The API key limit has been reached', 409),
  // Solution generator (SPEC.md §8 names these without numbers; §9 gives the tool's per-project counts).
  5048: e('Incorrect client count, broadband or bandwidth', 400),
  5049: e('Edit the core switch first, then the access switch', 409),
  5050: e('The switches outnumber the APs', 400),
  5051: e('Device type not selected', 400),
  5052: e('No matching plan', 409),
  // Final outcomes of commands the device accepted (reboot, reset, upgrade): later facts than the reply.
  5110: e('The device did not come back in time', 504),
  5111: e('The upgrade failed on the device', 502),
  // Outages (GET /health): a dependency other than the database is down.
  5070: e('A service the server depends on is unavailable', 503),
  // Sharing and OpenAPI keys (docs/decisions/0022, 0023).
  5090: e('This operation is only available in the web console, not with an API key', 403),
  5091: e('There is no pending offer of this project for your account', 404),
  // Configuration revisions (src/config/ of the server).
  5120: e('The configuration was changed by someone else; reload it and apply your change again', 409),
  // Switch ports (docs/decisions/0039).
  5260: e("The ports' PoE power limits exceed the switch's PoE budget", 409),
  // Network configuration (src/network/ of the server; SPEC.md §8 names these without numbers).
  5252: e('The project has no gateway to take this setting', 409),
  // Alarms (docs/decisions/0037, docs/alarms.md).
  5240: e('The webhook address is refused: use a public http or https URL', 400),
  5241: e('A webhook needs a signing secret of at least 16 characters', 400),
  5242: e('A maintenance window ends after it starts and lasts at most 31 days', 400),
  // Logs (src/logs/ of the server, docs/decisions/0036).
  5230: e('The time range is invalid: its start is after its end', 400),
  // Online clients (src/clients/ of the server, docs/decisions/0035).
  5220: e('The client blacklist is full (at most 100 entries)', 409),
  5221: e('The client is not online on this device', 404),
  // Overview and data screen (docs/decisions/0041).
  5270: e('Choose a country by its ISO 3166-1 code', 400),
} satisfies Record<number, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Named codes used in code, so call sites read as words, not numbers. */
export const Codes = {
  OK: 0,
  SET_FAILED: -99,
  GENERAL: 1,
  MODEL: 2,
  ACCOUNT_EMPTY: 4,
  DATABASE: 5,
  PASSWORD: 6,
  TOKEN_MISSING: 9,
  TOKEN_OLD: 10,
  VERIFICATION: 11,
  /** A well-formed code that is wrong, used or expired (11 is a malformed one). */
  VERIFICATION_CODE: 12,
  USER_EXISTS: 13,
  ALTER_NAME: 14,
  ALTER_ADDRESS: 15,
  FORM_DATA: 16,
  JSON: 19,
  FILE: 20,
  ALREADY_SHARED: 21,
  SHARE_ACCOUNT_MISSING: 22,
  SHARE_TO_SELF: 28,
  PROJECT_ID: 30,
  NO_CONFIG_FILE: 31,
  DEVICE_OFFLINE: 36,
  UNSUPPORTED_VERSION: 37,
  NO_NEW_VERSION: 38,
  SEND_PER_HOUR: 51,
  SEND_PER_DAY: 52,
  SEND_PER_MINUTE: 53,
  READ_SHARE_MAX: 61,
  READ_WRITE_SHARE_MAX: 62,
  SHARE_OVERWRITE: 63,
  INVITE_EXPIRED: 64,
  PASSWORD_MODIFIED: 70,
  UPGRADING: 71,
  PROJECT_INVALID: 73,
  PROJECT_EXPIRED: 74,
  VERIFY_LIMIT: 75,
  LOCAL_MANAGE: 76,
  PASSWORD_INPUT_LIMIT: 80,
  MESH_WLAN_CONFLICT: 93,
  REMOTE_FAILED: 320,
  REMOTE_LOGIN_TIMEOUT: 321,
  NETWORK: 404,
  DEVICE_DELETED: 410,
  SERVER: 2000,
  REPEATED_CLICKS: 2010,
  TRANSFER_NO_ACCOUNT: 2101,
  TRANSFER_SAME_MANAGER: 2102,
  TRANSFER_NOT_MANAGER: 2103,
  BAD_CREDENTIALS: 5001,
  LOGIN_ELSEWHERE: 5003,
  PROJECT_LIMIT: 5004,
  DEVICE_BOUND: 5005,
  BIND_FAILED: 5006,
  ONE_GATEWAY: 5008,
  UPLOAD_FAILED: 5016,
  IMAGE_TOO_LARGE: 5017,
  INVALID_EXCEL: 5018,
  EMPTY_DATA: 5019,
  TOO_MANY_DEVICES: 5020,
  REMOTE_URL_FAILED: 5023,
  REMOTE_AUTH_TIMEOUT: 5024,
  COMMAND_TIMEOUT: 5025,
  FORBIDDEN: 5030,
  DEMO_PROJECT: 5031,
  READ_ONLY: 5032,
  NOT_FOUND: 5033,
  RATE_LIMITED: 5034,
  BAD_ORIGIN: 5035,
  SCENARIO_LIMIT: 5037,
  NAME_TAKEN: 5038,
  INCONSISTENT_PASSWORDS: 5039,
  FILE_TOO_LARGE: 5040,
  FILE_FORMAT: 5041,
  VLAN_ID_EXISTS: 111,
  VLAN_ID_NOT_INTEGER: 112,
  VLAN_NAME: 120,
  NOT_SAME_NETWORK: 107,
  OUTSIDE_DHCP_RANGE: 108,
  END_IP_NOT_GREATER: 109,
  SAME_DNS: 110,
  SAME_AS_LAN_IP: 103,
  SAME_AS_VLAN_IP: 104,
  WAN_GATEWAY: 121,
  WAN_LAN_SAME: 122,
  MAX_WIRELESS: 40,
  SAME_SSID: 24,
  RADIO_RUNNING: 27,
  SEGMENT_CLASH: 5042,
  DESTINATION_TAKEN: 5043,
  NAME_RESERVED: 5044,
  COUNTRY_LIMIT: 5045,
  DEVICE_BUSY: 5046,
  API_KEY_LIMIT: 5047,
  SOLUTION_INPUT: 5048,
  SOLUTION_EDIT_ORDER: 5049,
  SOLUTION_SWITCHES_OUTNUMBER_APS: 5050,
  SOLUTION_NO_DEVICE_TYPE: 5051,
  SOLUTION_NO_PLAN: 5052,
  NOT_BACK_IN_TIME: 5110,
  UPGRADE_FAILED: 5111,
  DEPENDENCY_DOWN: 5070,
  WEB_ONLY: 5090,
  NO_OFFER: 5091,
  DUPLICATE_SSID: 5009,
  CONFIG_STALE: 5120,
  VLAN_MISSING: 5013,
  DHCP_EXCLUSIVE: 5011,
  AGGREGATION: 5015,
  POE_BUDGET: 5260,
  INTERFACE_IN_USE: 5012,
  NO_GATEWAY: 5252,
  DEFAULT_ROUTE: 164,
  LAN_IP: 101,
  IP_CONFLICT: 105,
  MAC_CONFLICT: 106,
  WEBHOOK_TARGET_REFUSED: 5240,
  WEBHOOK_SECRET_REQUIRED: 5241,
  WINDOW_RANGE: 5242,
  LOG_RANGE: 5230,
  CLIENT_BLACKLIST_FULL: 5220,
  CLIENT_NOT_ONLINE: 5221,
  COUNTRY_CODE: 5270,
} as const satisfies Record<string, ErrorCode>;

/** Client-side failures that have no server code (SPEC.md §7). */
export const CLIENT_FAILURE_MESSAGES = {
  noReturnCode: 'The server answered without a return code',
  malformed: 'The server answer has an invalid format',
  network: 'network error, try again later',
} as const;

export function isKnownCode(code: number): code is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, code);
}

/** en-US message for a code; unknown codes read "Unknown error code N" (SPEC.md §8). */
export function errorMessage(code: number): string {
  return isKnownCode(code) ? ERROR_CATALOGUE[code].message : `Unknown error code ${code}`;
}

export function httpStatusFor(code: number): number {
  return isKnownCode(code) ? ERROR_CATALOGUE[code].status : 500;
}

/** The one failure value every validator and service returns or throws. */
export interface Failure {
  code: ErrorCode;
  message: string;
  /** Field name → message, for forms. */
  fields?: Record<string, string>;
}

export class AppError extends Error implements Failure {
  readonly code: ErrorCode;
  readonly fields?: Record<string, string>;
  constructor(code: ErrorCode, message?: string, fields?: Record<string, string>) {
    super(message ?? errorMessage(code));
    this.code = code;
    this.fields = fields;
  }
  get status(): number {
    return httpStatusFor(this.code);
  }
}

export function fail(code: ErrorCode, message?: string, fields?: Record<string, string>): Failure {
  return { code, message: message ?? errorMessage(code), ...(fields ? { fields } : {}) };
}
