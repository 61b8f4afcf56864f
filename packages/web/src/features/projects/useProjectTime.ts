import { formatDateTimeInZone } from '@beacon/protocol';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../api/index.ts';
import { formatDateTime } from '../../util/format.ts';

/**
 * The project's time zone (SPEC.md §3) and a formatter that shows device times on its clock rather
 * than the browser's. Reads the same query as the project page, so it costs no extra request there.
 * Until the project is loaded, times read in the browser's zone.
 */
export function useProjectTime(projectId: number | undefined): {
  zone: string | undefined;
  format(value: string | null | undefined): string;
} {
  const project = useQuery({
    queryKey: ['project', projectId],
    queryFn: () => api.project(projectId!),
    enabled: projectId !== undefined,
  });
  const zone = project.data?.timeZone;
  const format = useCallback(
    (value: string | null | undefined) => (zone ? formatDateTimeInZone(value, zone) : formatDateTime(value)),
    [zone],
  );
  return { zone, format };
}
