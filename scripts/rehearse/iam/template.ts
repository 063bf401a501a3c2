/**
 * A synthesized CloudFormation template, and the resolution of its intrinsic functions to the values
 * a deployment would see. Physical names and ARNs come from a PhysicalLookup the caller chooses
 * (default-lookup.ts derives plausible ones; the rehearsal overrides what it provisions locally), so
 * the same template can be read as "deployed to account X" or "running against the local cloud".
 */
import { readFileSync } from 'node:fs';

export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
}

export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Parameters?: Record<string, { Default?: unknown }>;
}

/** What `Ref` and `Fn::GetAtt` of a logical id (or a pseudo parameter such as AWS::Region) give. */
export interface PhysicalLookup {
  ref(logicalId: string): string;
  getAtt(logicalId: string, attr: string): string;
}

/** `cdk.out/onair-<stage>.template.json` (run `npx cdk synth -q -c stage=<stage>` first). */
export function loadTemplate(path: string): CfnTemplate {
  const template = JSON.parse(readFileSync(path, 'utf8')) as CfnTemplate;
  if (!template.Resources || typeof template.Resources !== 'object')
    throw new Error(`${path}: not a CloudFormation template (no Resources)`);
  return template;
}

/** The resources of one type, as [logicalId, resource] pairs. */
export function resourcesOfType(template: CfnTemplate, type: string): [string, CfnResource][] {
  return Object.entries(template.Resources).filter(([, r]) => r.Type === type);
}

/**
 * `value` with every intrinsic function replaced by its value. Throws on an intrinsic it does not
 * know (a silent pass-through would compare policies against unresolved objects).
 */
export function resolve(value: unknown, lookup: PhysicalLookup): unknown {
  if (Array.isArray(value)) return value.map((v) => resolve(v, lookup));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const [key, arg] = entries[0] ?? [];
  if (entries.length === 1 && key !== undefined && (key === 'Ref' || key.startsWith('Fn::')))
    return resolveIntrinsic(key, arg, lookup);
  return Object.fromEntries(entries.map(([k, v]) => [k, resolve(v, lookup)]));
}

/** resolve(), for a value that must come out a string. */
export function resolveString(value: unknown, lookup: PhysicalLookup): string {
  const resolved = resolve(value, lookup);
  if (typeof resolved !== 'string') throw new Error(`expected a string, got ${JSON.stringify(resolved)}`);
  return resolved;
}

function resolveIntrinsic(fn: string, arg: unknown, lookup: PhysicalLookup): unknown {
  switch (fn) {
    case 'Ref':
      return lookup.ref(String(arg));
    case 'Fn::GetAtt': {
      const [id, attr] = Array.isArray(arg) ? arg : String(arg).split(/\.(.*)/);
      return lookup.getAtt(String(id), String(resolve(attr, lookup)));
    }
    case 'Fn::Join': {
      const [delimiter, parts] = arg as [string, unknown];
      return (resolve(parts, lookup) as unknown[]).map(String).join(delimiter);
    }
    case 'Fn::Select': {
      const [index, list] = arg as [unknown, unknown];
      const items = resolve(list, lookup) as unknown[];
      const i = Number(resolve(index, lookup));
      if (!(i >= 0 && i < items.length)) throw new Error(`Fn::Select index ${i} out of ${items.length}`);
      return items[i];
    }
    case 'Fn::Split': {
      const [delimiter, source] = arg as [string, unknown];
      return resolveString(source, lookup).split(delimiter);
    }
    case 'Fn::Sub':
      return substitute(arg, lookup);
    case 'Fn::GetAZs': {
      const region = resolveString(arg, lookup) || lookup.ref('AWS::Region');
      return ['a', 'b', 'c'].map((zone) => `${region}${zone}`);
    }
    case 'Fn::Base64':
      return Buffer.from(resolveString(arg, lookup)).toString('base64');
    default:
      throw new Error(`intrinsic ${fn} is not supported`);
  }
}

/** `Fn::Sub`: `${Name}` is a variable, a Ref or a pseudo parameter; `${Id.Attr}` a GetAtt; `${!x}` is `${x}`. */
function substitute(arg: unknown, lookup: PhysicalLookup): string {
  const [text, variables] = typeof arg === 'string' ? [arg, {}] : (arg as [string, Record<string, unknown>]);
  return text.replace(/\$\{([^}]*)\}/g, (_, name: string) => {
    if (name.startsWith('!')) return `\${${name.slice(1)}}`;
    if (name in variables) return resolveString(variables[name], lookup);
    const dot = name.indexOf('.');
    return dot < 0 ? lookup.ref(name) : lookup.getAtt(name.slice(0, dot), name.slice(dot + 1));
  });
}
