import { Codes, type Failure } from '../errors.ts';
import { validateIntegerInRange } from './numbers.ts';
import { type Check, invalid } from './result.ts';

/** SPEC.md §5: a port is an integer 1-65535. */
export const validatePort = (value: number | string, label = 'Port'): Check =>
  validateIntegerInRange(value, 1, 65535, label);

/** SPEC.md §5: a port range; the end port is not less than the start port. */
export function validatePortRange(start: number | string, end: number | string): Check {
  return (
    validatePort(start, 'Start port') ??
    validatePort(end, 'End port') ??
    (Number(end) >= Number(start)
      ? null
      : invalid(Codes.FORM_DATA, 'The end port cannot be less than the start port'))
  );
}

/**
 * A port field: one port ("80"), a consecutive range ("8000-8010" or "8000~8010") or a
 * non-consecutive list ("80;443;8080"). Ranges and lists cannot be mixed.
 */
export type PortSpec =
  | { kind: 'single'; ports: number[] }
  | { kind: 'range'; start: number; end: number; ports: number[] }
  | { kind: 'list'; ports: number[] };

/** Parses a port field; answers a Failure when it is not valid. */
export function parsePortSpec(text: string, label = 'Port'): PortSpec | Failure {
  const value = text.trim();
  if (value === '') return invalid(Codes.FORM_DATA, `${label} cannot be empty`);
  const hasRange = /[-~]/.test(value);
  const hasList = value.includes(';');
  if (hasRange && hasList) {
    return invalid(Codes.FORM_DATA, 'Consecutive (- or ~) and non-consecutive (;) ports cannot be mixed');
  }
  if (hasRange) {
    const parts = value.split(/[-~]/).map((p) => p.trim());
    if (parts.length !== 2) return invalid(Codes.FORM_DATA, `${label} range must be written as start-end`);
    const failure = validatePortRange(parts[0], parts[1]);
    if (failure) return failure;
    const start = Number(parts[0]);
    const end = Number(parts[1]);
    return { kind: 'range', start, end, ports: Array.from({ length: end - start + 1 }, (_, i) => start + i) };
  }
  const parts = value.split(';').map((p) => p.trim());
  const ports: number[] = [];
  for (const part of parts) {
    const failure = validatePort(part, label);
    if (failure) return failure;
    ports.push(Number(part));
  }
  return hasList ? { kind: 'list', ports } : { kind: 'single', ports };
}

const isFailure = (v: PortSpec | Failure): v is Failure => 'code' in v;

/** SPEC.md §5: a single port field (one port, a range or a list). */
export function validatePortSpec(text: string, label = 'Port'): Check {
  const spec = parsePortSpec(text, label);
  return isFailure(spec) ? spec : null;
}

/**
 * SPEC.md §5 port mapping: internal and external fields each valid, of the same format (single,
 * range or list) and the same count; internal ports must differ from one another.
 */
export function validatePortMapping(internal: string, external: string): Check {
  const inSpec = parsePortSpec(internal, 'Internal port');
  if (isFailure(inSpec)) return inSpec;
  const exSpec = parsePortSpec(external, 'External port');
  if (isFailure(exSpec)) return exSpec;
  if (new Set(inSpec.ports).size !== inSpec.ports.length)
    return invalid(Codes.FORM_DATA, 'Internal ports must differ');
  if (inSpec.kind !== exSpec.kind) {
    return invalid(Codes.FORM_DATA, 'Internal and external ports must use the same format');
  }
  if (inSpec.ports.length !== exSpec.ports.length) {
    return invalid(Codes.FORM_DATA, 'Internal and external port counts must match');
  }
  return null;
}
