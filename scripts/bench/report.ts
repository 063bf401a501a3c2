/** The benchmark's printed report: tables of figures, and each target of the issue with the figure that decides it. */
import type { BenchResults, ChannelsRun } from './results';

export interface TargetCheck {
  target: string;
  figure: string;
  met: boolean;
}

const f = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
const int = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '-');

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function checkTargets(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const largest = results.runs.reduce<ChannelsRun | undefined>(
    (best, r) => (!best || r.channels > best.channels ? r : best),
    undefined,
  );
  if (largest) {
    const at = `at ${int(largest.channels)} channels`;
    const share = largest.engine.rps / largest.ceiling.rps;
    checks.push({
      target: `serving >= 50 % of the ceiling ${at}`,
      figure: `${f(share * 100)} % (${int(largest.engine.rps)} of ${int(largest.ceiling.rps)} req/s)`,
      met: share >= 0.5,
    });
    checks.push({
      target: `p99 < 10 ms under load ${at}`,
      figure:
        `p99 ${f(largest.engine.latency.p99Ms, 2)} ms, max ${f(largest.engine.latency.maxMs)} ms ` +
        `(ceiling p99 ${f(largest.ceiling.before.latency.p99Ms, 2)} / ${f(largest.ceiling.after.latency.p99Ms, 2)} ms)`,
      met: largest.engine.latency.p99Ms < 10,
    });
    const mem = [largest.perChannel.rssMB, largest.perChannel.heapMB, largest.perChannelAfterLoad.heapMB];
    checks.push({
      target: `< 0.3 MB per channel ${at}`,
      figure:
        `${f(largest.perChannel.rssMB, 3)} MB RSS, ${f(largest.perChannel.heapMB, 3)} MB heap; ` +
        `${f(largest.perChannelAfterLoad.heapMB, 3)} MB heap after the load`,
      met: Math.max(...mem) < 0.3,
    });
    const { withChange, withoutChange } = largest.vodChange;
    checks.push({
      target: `no latency spike when channels change VOD ${at} (p99 < 10 ms in every interval with one)`,
      figure:
        withChange.intervals === 0
          ? 'no VOD change fell in the measured interval'
          : `worst 1 s p99 ${f(withChange.worstP99Ms, 2)} ms / max ${f(withChange.maxMs)} ms with a change ` +
            `(${withChange.intervals} s), ${f(withoutChange.worstP99Ms, 2)} / ${f(withoutChange.maxMs)} ms without`,
      met: withChange.intervals > 0 && withChange.worstP99Ms < 10,
    });
    const rt = largest.realTime;
    checks.push({
      target: `real time during the run ${at} (edge within one segment of the clock)`,
      figure:
        `edge advanced ${f(rt.minSegmentsAheadOfClock, 2)}..${f(rt.maxSegmentsAheadOfClock, 2)} segments vs the clock ` +
        `over ${f(rt.wallMs / 1000)} s; lag ${int(rt.minLagMs)}..${int(rt.maxLagMs)} ms`,
      met:
        Math.abs(rt.minSegmentsAheadOfClock) < 1 &&
        Math.abs(rt.maxSegmentsAheadOfClock) < 1 &&
        rt.minLagMs >= -1 &&
        rt.maxLagMs < rt.segmentMs,
    });
  }
  for (const c of results.drift.channels) {
    const k = c.keeping;
    const worst = Math.max(Math.abs(k.driftMs), Math.abs(k.mediaDriftMs));
    checks.push({
      target: `< 1 segment of drift per ${results.drift.simulatedHours} h (${c.vods})`,
      figure:
        `drift ${f(k.driftMs)} ms served, ${f(k.mediaDriftMs)} ms of real media ` +
        `(${f(worst / c.segmentMs, 3)} segment); lag stayed ${int(k.minLagMs)}..${int(k.maxLagMs)} ms`,
      met: worst < c.segmentMs && k.skipped === 0 && k.rewound === 0 && k.maxLagMs < c.segmentMs,
    });
  }
  return checks;
}

export function formatReport(results: BenchResults, checks: readonly TargetCheck[]): string {
  const { machine, options } = results;
  const out: string[] = [];
  out.push(
    `Engine benchmark: ${machine.cpus} cores (load average ${machine.loadAverage.map((x) => f(x, 2)).join(' ')}), ` +
      `node ${machine.node}, ${options.connections} keep-alive connections, ${options.seconds} s per measurement, ` +
      `playlist ${int(results.ceilingBodyBytes)} B (ceiling) / ` +
      `${results.runs.map((r) => int(r.engine.bytesPerResponse)).join(', ')} B (engine)`,
    '',
  );
  out.push(
    table(
      [
        'channels',
        'ceiling req/s',
        'engine req/s',
        '% ceiling',
        'p50 ms',
        'p99 ms',
        'max ms',
        'engine CPU %',
        'loader CPU %',
        'MB/ch RSS',
        'MB/ch heap',
        'idle CPU %',
        'start s',
      ],
      results.runs.map((r) => [
        int(r.channels),
        int(r.ceiling.rps),
        int(r.engine.rps),
        f((r.engine.rps / r.ceiling.rps) * 100),
        f(r.engine.latency.p50Ms, 2),
        f(r.engine.latency.p99Ms, 2),
        f(r.engine.latency.maxMs),
        f(r.engine.serverCpu.cpuPct, 0),
        f(r.engine.clientCpuPct, 0),
        f(r.perChannel.rssMB, 3),
        f(r.perChannel.heapMB, 3),
        f(r.idle.cpuPct, 2),
        f(r.startupMs / 1000),
      ]),
    ),
  );
  out.push('', 'Ceiling (raw node:http, same playlist size), before and after the engine:');
  out.push(
    table(
      ['channels', 'when', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'server CPU %', 'loader CPU %'],
      results.runs.flatMap((r) =>
        (['before', 'after'] as const).map((when) => {
          const c = r.ceiling[when];
          return [
            int(r.channels),
            when,
            int(c.rps),
            f(c.latency.p50Ms, 2),
            f(c.latency.p99Ms, 2),
            f(c.latency.maxMs),
            f(c.serverCpu.cpuPct, 0),
            f(c.clientCpuPct, 0),
          ];
        }),
      ),
    ),
  );
  for (const r of results.runs) {
    const t0 = r.intervals[0]?.startMs ?? 0;
    out.push(
      '',
      `${int(r.channels)} channels, per second under load (appended = next VOD planned, started = VOD change on air):`,
    );
    out.push(
      table(
        ['t s', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'appended', 'started'],
        r.intervals.map((i) => [
          f((i.startMs - t0) / 1000, 0),
          int(i.rps),
          f(i.p50Ms, 2),
          f(i.p99Ms, 2),
          f(i.maxMs),
          int(i.appended),
          int(i.started),
        ]),
      ),
    );
    out.push(
      `memory per channel: ${f(r.perChannel.rssMB, 3)} MB RSS, ${f(r.perChannel.heapMB, 3)} MB heap at ` +
        `${f(r.tailItems.steady)} log items per channel; ${f(r.perChannelAfterLoad.heapMB, 3)} MB heap after the load ` +
        `(${f(r.tailItems.afterLoad)} items, playlists rendered)`,
    );
    out.push(
      `idle: ${f(r.idle.cpuPct, 2)} % CPU over ${f(r.idle.wallMs / 1000)} s ` +
        `(${int(r.idle.appended)} appends, ${int(r.idle.started)} starts; event-loop delay max ${f(r.idle.loopDelayMaxMs)} ms); ` +
        `under load: event-loop delay p99 ${f(r.engine.serverCpu.loopDelayP99Ms)} ms, max ${f(r.engine.serverCpu.loopDelayMaxMs)} ms; ` +
        `errors ${int(r.engine.errors)}, VOD errors ${int(r.problems.vodErrors)}, slates ${int(r.problems.slates)}`,
    );
  }
  out.push('', `Playout speed over ${results.drift.simulatedHours} simulated hours (injected clock):`);
  out.push(
    table(
      [
        'channel',
        'segments',
        'skipped',
        'lag min ms',
        'lag max ms',
        'drift ms',
        'media drift ms',
        'rounding ms',
      ],
      results.drift.channels.map((c) => [
        c.vods,
        int(c.keeping.segments),
        int(c.keeping.skipped),
        int(c.keeping.minLagMs),
        int(c.keeping.maxLagMs),
        f(c.keeping.driftMs),
        f(c.keeping.mediaDriftMs),
        f(c.keeping.roundingMs),
      ]),
    ),
  );
  out.push('', 'Targets:');
  for (const c of checks) out.push(`  [${c.met ? 'met' : 'NOT met'}] ${c.target}: ${c.figure}`);
  return out.join('\n');
}
