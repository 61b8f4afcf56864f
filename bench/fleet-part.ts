/**
 * A share of bench/fleet's devices in a process of its own (bench/fleet-runner.ts fleetInChildren):
 * started, counted and stopped by its parent over the IPC channel.
 */
import { type FleetRunner, fleetInProcess, type PartMessage, type PartReply } from './fleet-runner.ts';

let fleet: FleetRunner | null = null;
const reply = (message: PartReply) => process.send?.(message);

process.on('message', async (message: PartMessage) => {
  switch (message.type) {
    case 'start':
      fleet = await fleetInProcess(message.options);
      reply({ type: 'started' });
      break;
    case 'mark':
      await fleet?.mark();
      reply({ type: 'marked' });
      break;
    case 'reconnected':
      reply({ type: 'count', count: (await fleet?.reconnected()) ?? 0 });
      break;
    case 'drop':
      await fleet?.drop();
      reply({ type: 'dropped' });
      break;
    case 'stop':
      await fleet?.stop();
      reply({ type: 'stopped' });
      process.exit(0);
  }
});
// The parent gone (a failed run): no orphaned fleet.
process.on('disconnect', () => process.exit(0));
