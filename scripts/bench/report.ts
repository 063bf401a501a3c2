/** The benchmark's printed report: tables of figures, and each target of the issue with the figure that decides it. */
import { describeColdReads } from './cold-reads';
import type { BenchResults, ChannelsRun, LoadRun } from './results';

export interface TargetCheck {
  target: string;
  figure: string;
  met: boolean;
}

const MB = 1024 * 1024;
const f = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
const int = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '-');

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Above this share of its core, the load tool may have been the limit and the run says nothing. */
const LOAD_TOOL_MAX_CPU_PCT = 90;

/** CPU microseconds the server spent per request (its CPU over the run, from /proc). */
export const cpuPerRequestUs = (l: LoadRun): number =>
  ((l.serverCpuPct / 100) * l.seconds * 1e6) / Math.max(1, l.requests);

/**
 * The engine's share of the ceiling in CPU per request: what the served share would be if both had a
 * quiet core to themselves. Unlike req/s, it barely moves when other processes take the core.
 */
export function cpuShare(r: ChannelsRun): number {
  const ceiling = (cpuPerRequestUs(r.ceiling.first) + cpuPerRequestUs(r.ceiling.second)) / 2;
  return ceiling / cpuPerRequestUs(r.engine);
}

/** Below this share of their core under load, other processes took the servers' core: req/s says little. */
const SERVER_MIN_CPU_PCT = 80;

/** "starved" when a server had less than its core under load (its req/s and latency measure the machine). */
export const starved = (l: LoadRun): boolean => l.serverCpuPct < SERVER_MIN_CPU_PCT;
const cpuCell = (l: LoadRun): string => `${f(l.serverCpuPct, 0)}${starved(l) ? ' starved' : ''}`;

/** The issue's serving targets per channel count: share of the ceiling and p99. */
const SERVING: Record<number, { share: number; p99Ms: number }> = {
  1000: { share: 0.7, p99Ms: 5 },
  10000: { share: 0.5, p99Ms: 10 },
};

function servingChecks(r: ChannelsRun): TargetCheck[] {
  const goal = SERVING[r.channels];
  if (!goal) return [];
  const at = `at ${int(r.channels)} channels`;
  const share = r.engine.rps / r.ceiling.rps;
  return [
    {
      target: `serving >= ${goal.share * 100} % of the ceiling ${at}`,
      figure:
        `${f(share * 100)} % (${int(r.engine.rps)} of ${int(r.ceiling.rps)} req/s); by CPU per request ` +
        `${f(cpuShare(r) * 100)} % (${f(cpuPerRequestUs(r.engine))} µs vs ${f(cpuPerRequestUs(r.ceiling.first))} / ${f(cpuPerRequestUs(r.ceiling.second))} µs); ` +
        `server CPU % engine ${cpuCell(r.engine)}, ceiling ${cpuCell(r.ceiling.first)} / ${cpuCell(r.ceiling.second)}`,
      met: share >= goal.share,
    },
    {
      target: `p99 < ${goal.p99Ms} ms under load ${at}`,
      figure:
        `p99 ${f(r.engine.latency.p99Ms, 2)} ms, max ${f(r.engine.latency.maxMs)} ms ` +
        `(ceiling p99 ${f(r.ceiling.first.latency.p99Ms, 2)} / ${f(r.ceiling.second.latency.p99Ms, 2)} ms)`,
      met: r.engine.latency.p99Ms < goal.p99Ms,
    },
  ];
}

/** The seconds of a window a mark-compact's CPU may fall in, as a phrase; '' when not traced (older results). */
function markCompactPhrase(marked: readonly number[] | undefined): string {
  if (!marked) return '';
  return marked.length ? `a mark-compact in seconds ${marked.join(', ')}` : 'no mark-compact';
}

/**
 * The idle window's collections, and the worst second outside its mark-compacts: whether a busy second
 * was V8's major collection or the engine's own work.
 */
function describeMarkCompacts(idle: ChannelsRun['idle']): string {
  const marked = idle.markCompactSeconds;
  if (!marked) return 'collections not traced';
  const kinds = Object.entries(idle.collections ?? {}).map(([kind, n]) => `${n} ${kind}`);
  const collections = `collections ${kinds.join(', ') || 'none'}, ${markCompactPhrase(marked)}`;
  if (marked.length === 0) return collections;
  const outside = idle.perSecondPct.filter((_, second) => !marked.includes(second));
  return `${collections}, worst second outside them ${f(Math.max(0, ...outside), 0)} %`;
}

/** The wave of first plannings after channels are created at once (read before idle; older results have none). */
function describeFirstPlanning(r: ChannelsRun): string {
  const wave = r.firstPlanning;
  if (!wave) return 'the first planning was not told apart';
  const whole =
    wave.replanned >= r.channels ? 'every channel' : `${int(wave.replanned)} of ${int(r.channels)} channels`;
  const marked = markCompactPhrase(wave.markCompactSeconds);
  return (
    `${whole} planned past its start-up in ${wave.perSecondPct.length} s after the capture ` +
    `(${f(wave.avgPct, 2)} % average, worst second ${f(wave.worstSecondPct, 0)} %${marked && `, ${marked}`})`
  );
}

export function checkTargets(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const loads = results.runs.flatMap((r) => [r.ceiling.first, r.ceiling.second, r.engine]);
  const busiest = Math.max(...loads.map((l) => l.clientCpuPct));
  checks.push({
    target: `the load tool had CPU to spare (< ${LOAD_TOOL_MAX_CPU_PCT} % of its core in every run)`,
    figure: `wrk at most ${f(busiest, 0)} % of its core`,
    met: busiest < LOAD_TOOL_MAX_CPU_PCT,
  });
  const least = (pick: (r: ChannelsRun) => LoadRun[]) =>
    Math.min(...results.runs.flatMap((r) => pick(r).map((l) => l.serverCpuPct)));
  const ceilingLeast = least((r) => [r.ceiling.first, r.ceiling.second]);
  const engineLeast = least((r) => [r.engine]);
  checks.push({
    target: `the servers had their core (each >= ${SERVER_MIN_CPU_PCT} % of it under load; if not, req/s and latency measure the machine)`,
    figure:
      `ceiling at least ${f(ceilingLeast, 0)} %${ceilingLeast < SERVER_MIN_CPU_PCT ? ' (starved)' : ''}, ` +
      `engine at least ${f(engineLeast, 0)} %${engineLeast < SERVER_MIN_CPU_PCT ? ' (starved)' : ''} of its core`,
    met: Math.min(ceilingLeast, engineLeast) >= SERVER_MIN_CPU_PCT,
  });
  for (const r of results.runs)
    if (r.captured.notOk > 0)
      checks.push({
        target: `the ceiling replays only playlists at ${int(r.channels)} channels`,
        figure: `${int(r.captured.notOk)} of ${int(r.captured.paths)} captured answers were not 200`,
        met: false,
      });
  for (const r of results.runs) checks.push(...servingChecks(r));
  for (const r of results.runs.filter((x) => x.channels >= 100_000)) {
    const rssGB = r.memory.idle.rssBytes / 1024 ** 3;
    checks.push({
      target: `${int(r.channels)} channels ready < 30 s in < 4 GB`,
      figure:
        `ready ${f(r.startupMs / 1000, 2)} s, idle RSS ${f(rssGB, 2)} GB, idle CPU ${f(r.idle.avgPct, 2)} % ` +
        `(worst second ${f(r.idle.worstSecondPct, 0)} %), ${int(r.engine.rps)} req/s with p99 ${f(r.engine.latency.p99Ms, 2)} ms`,
      met: r.startupMs < 30_000 && rssGB < 4,
    });
  }
  // The idle, memory, start-up and real-time targets are the 10,000-channel ones (issue 22): judged there
  // when measured, else at the largest run below 100,000 (which has its own target, above).
  const atScale = atScaleRun(results.runs);
  if (atScale) {
    const at = `at ${int(atScale.channels)} channels`;
    checks.push({
      target: `idle CPU < 2 % of a core ${at}, no second above 10 %`,
      figure:
        `${f(atScale.idle.avgPct, 2)} % average over ${atScale.idle.perSecondPct.length} s, worst second ${f(atScale.idle.worstSecondPct)} %; ` +
        `${describeMarkCompacts(atScale.idle)}; before it, ${describeFirstPlanning(atScale)}` +
        // An idle engine's wakes read memory untouched for seconds: on a host that makes that dear, the
        // figure measures the host as much as the engine (docs/benchmarks.md, seventeenth pass).
        (results.host ? `; on this host ${describeColdReads(results.host)}` : ''),
      met: atScale.idle.avgPct < 2 && atScale.idle.worstSecondPct <= 10,
    });
    checks.push({
      target: `< 0.05 MB per channel ${at} (bundled engine, RSS)`,
      figure:
        `${f(atScale.perChannel.rssMB, 4)} MB RSS, ${f(atScale.perChannel.heapMB, 4)} MB heap; ` +
        `${f(atScale.perChannelAfterLoad.rssMB, 4)} MB RSS after the load`,
      met: atScale.perChannel.rssMB < 0.05,
    });
    const { steady, idle, afterLoad } = atScale.memory;
    const growth = afterLoad.rssBytes / idle.rssBytes;
    checks.push({
      target: `RSS after the load <= 1.3x idle ${at}`,
      figure:
        `${int(idle.rssBytes / MB)} MB idle -> ${int(afterLoad.rssBytes / MB)} MB after the load (${f(growth, 2)}x; ` +
        `V8 heap committed ${int(idle.heapTotalBytes / MB)} -> ${int(afterLoad.heapTotalBytes / MB)} MB, used ` +
        `${int(idle.heapUsedBytes / MB)} -> ${int(afterLoad.heapUsedBytes / MB)} MB; ${int(steady.rssBytes / MB)} MB ` +
        `1 s after the channels were created, ${f(afterLoad.rssBytes / steady.rssBytes, 2)}x that)`,
      met: growth <= 1.3,
    });
    checks.push({
      target: `first playlists ready < 5 s after ${int(atScale.channels)} channels are created at once`,
      figure: `every channel's first playlist rendered ${f(atScale.startupMs / 1000, 2)} s after creating them`,
      met: atScale.startupMs < 5000,
    });
    const rt = atScale.realTime;
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

/** The run the 10,000-channel targets judge: 10,000 channels, else the largest run below 100,000, else the largest. */
export function atScaleRun<R extends { channels: number }>(runs: readonly R[]): R | undefined {
  const largestOf = (some: readonly R[]) =>
    some.reduce<R | undefined>((best, r) => (!best || r.channels > best.channels ? r : best), undefined);
  return (
    runs.find((r) => r.channels === 10_000) ??
    largestOf(runs.filter((r) => r.channels < 100_000)) ??
    largestOf(runs)
  );
}

export function formatReport(results: BenchResults, checks: readonly TargetCheck[]): string {
  const { machine, options } = results;
  const out: string[] = [];
  out.push(
    `Engine benchmark: ${machine.cpus} cores, load average ${machine.loadAverageBefore} at the start, ` +
      `${machine.loadAverageAfter} at the end (a busy machine lowers every figure); node ${machine.node}.`,
    `Servers (bundled engine ${int(results.engineBundleBytes)} B${options.engineNodeFlags ? ` with node ${options.engineNodeFlags}` : ''}, raw node:http ceiling) pinned to core ${options.engineCores}, ` +
      `wrk pinned to core ${options.loadCores}: ${options.connections} keep-alive connections, round-robin over every ` +
      `channel's media playlist, ${options.seconds} s per measurement after 2 s of warm-up. The ceiling replays the ` +
      `engine's own answer to each path, captured once (mean playlist ${results.runs.map((r) => int(r.captured.meanBodyBytes)).join(', ')} B; ` +
      `per response incl. headers engine ${results.runs.map((r) => int(r.engine.bytesPerResponse)).join(', ')} B, ` +
      `ceiling ${results.runs.map((r) => int(r.ceiling.first.bytesPerResponse)).join(', ')} B). ` +
      `"starved": a server had < ${SERVER_MIN_CPU_PCT} % of its core under load.`,
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
        'wrk CPU %',
        'CPU µs/req',
        '% ceiling by CPU',
        'MB/ch RSS',
        'idle CPU % avg',
        'worst s',
        'ready s',
      ],
      results.runs.map((r) => [
        int(r.channels),
        int(r.ceiling.rps),
        int(r.engine.rps),
        f((r.engine.rps / r.ceiling.rps) * 100),
        f(r.engine.latency.p50Ms, 2),
        f(r.engine.latency.p99Ms, 2),
        f(r.engine.latency.maxMs),
        cpuCell(r.engine),
        f(r.engine.clientCpuPct, 0),
        f(cpuPerRequestUs(r.engine)),
        f(cpuShare(r) * 100),
        f(r.perChannel.rssMB, 4),
        f(r.idle.avgPct, 2),
        f(r.idle.worstSecondPct, 0),
        f(r.startupMs / 1000, 2),
      ]),
    ),
  );
  out.push('', "Ceiling (raw node:http replaying the engine's captured answers), twice after the engine:");
  out.push(
    table(
      [
        'channels',
        'run',
        'req/s',
        'p50 ms',
        'p99 ms',
        'max ms',
        'server CPU %',
        'wrk CPU %',
        'CPU µs/req',
        'errors',
      ],
      results.runs.flatMap((r) =>
        (['first', 'second'] as const).map((when) => {
          const c = r.ceiling[when];
          return [
            int(r.channels),
            when,
            int(c.rps),
            f(c.latency.p50Ms, 2),
            f(c.latency.p99Ms, 2),
            f(c.latency.maxMs),
            cpuCell(c),
            f(c.clientCpuPct, 0),
            f(cpuPerRequestUs(c)),
            int(c.errors),
          ];
        }),
      ),
    ),
  );
  for (const r of results.runs) {
    out.push(
      '',
      `${int(r.channels)} channels: memory ${f(r.perChannel.rssMB, 4)} MB RSS / ${f(r.perChannel.heapMB, 4)} MB heap per channel ` +
        `idle, at ${f(r.tailItems.idle)} log items each (${f(r.tailItems.steady)} 1 s after creation; ${f(r.perChannelAfterLoad.rssMB, 4)} / ${f(r.perChannelAfterLoad.heapMB, 4)} MB after the load, ` +
        `${f(r.tailItems.afterLoad)} items); ${describeFirstPlanning(r)}, CPU per second ` +
        `${(r.firstPlanning?.perSecondPct ?? []).map((x) => f(x, 0)).join(' ')} %; then idle CPU per second ${r.idle.perSecondPct.map((x) => f(x, 0)).join(' ')} % ` +
        `(${describeMarkCompacts(r.idle)}; ${int(r.idle.appended)} appends, ${int(r.idle.started)} VOD starts); ` +
        `errors ${int(r.engine.errors)}, ` +
        `VOD errors ${int(r.problems.vodErrors)}, slates ${int(r.problems.slates)}`,
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
