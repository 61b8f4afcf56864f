import { z } from 'zod';
import { dhcpServerConfigSchema } from '../device/dhcp-server.ts';
import { ConfigReason } from './config.ts';
import { DeviceConfigState } from './devices.ts';
import { ID_MAX } from './ids.ts';

/**
 * The DHCP server of a switch or an AP (issue 10 "DHCP policy"; docs/decisions/0043): the
 * `dhcpServer` section of the device's configuration document, read and saved as a revision of the
 * configuration domain (decision 0029).
 *
 *   GET /api/v1/projects/{id}/devices/{sn}/dhcp-server   the section (null: never set), status
 *   PUT /api/v1/projects/{id}/devices/{sn}/dhcp-server   { expectedRevision, dhcpServer, reason? }
 */

export const SaveDhcpServerBody = z.object({
  /** The configuration revision the change is based on (0: none yet); another latest refuses 5120. */
  expectedRevision: z.int().min(0).max(ID_MAX),
  dhcpServer: dhcpServerConfigSchema,
  reason: ConfigReason,
});
export type SaveDhcpServerBody = z.input<typeof SaveDhcpServerBody>;

export const DhcpServerView = z.object({
  sn: z.string(),
  name: z.string(),
  model: z.string(),
  /** SPEC.md §4 status code now, and what stops a save (36, 71, 76), or null. */
  status: z.number().int(),
  blocked: z.number().int().nullable(),
  revision: z.number().int(),
  configStatus: z.enum([DeviceConfigState.PENDING, DeviceConfigState.APPLIED, DeviceConfigState.FAILED]),
  configCode: z.number().int().nullable(),
  reportedRevision: z.number().int(),
  /** The section as saved; null when the device has none. */
  dhcpServer: dhcpServerConfigSchema.nullable(),
  /** The device's management VLAN (served when the section names none); null: untagged. */
  managementVlan: z.number().int().nullable(),
  /** The VLANs of the project's network and which of them already have DHCP relay, snooping or server. */
  vlans: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      dhcp: z.enum(['none', 'server', 'relay', 'snooping']),
    }),
  ),
  /** DHCP clients the device reports it serves (null: not reported). */
  dhcpClientCount: z.number().int().nullable(),
});
export type DhcpServerView = z.output<typeof DhcpServerView>;
