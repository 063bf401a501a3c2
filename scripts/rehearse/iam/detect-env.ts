/**
 * The account and region a template was synthesized for, when CDK wrote them as literals (a stack
 * with an explicit or CDK_DEFAULT_* environment puts them into ARNs such as
 * `arn:${Partition}:ssm:eu-west-1:111111111111:parameter/...`). The lookup must use the same, or
 * every ARN it derives would miss the policies' literal ones.
 */
import type { AwsEnv } from './aws-env';
import type { CfnTemplate } from './template';

const ARN_ENV = /:[a-z0-9-]+:([a-z]{2}(?:-[a-z]+)+-\d):(?:(\d{12}):)?/g;

export function detectEnv(template: CfnTemplate): Partial<AwsEnv> {
  const regions = new Map<string, number>();
  const accounts = new Map<string, number>();
  const count = (m: Map<string, number>, key: string) => m.set(key, (m.get(key) ?? 0) + 1);
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const [, region, account] of value.matchAll(ARN_ENV)) {
        count(regions, region!);
        if (account) count(accounts, account);
      }
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(template.Resources);
  const mostFrequent = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1])[0]?.[0];
  const region = mostFrequent(regions);
  const account = mostFrequent(accounts);
  return { ...(region ? { region } : {}), ...(account ? { account } : {}) };
}
