import type { AwsEnv } from '../aws-env';
import type { Authorization } from '../calls';
import type { RawRequest } from './request';

/** The operation a request calls and the authorizations IAM checks for it. */
export interface Extracted {
  operation: string;
  authorizations: Authorization[];
}

export type Extractor = (request: RawRequest, env: AwsEnv) => Extracted;

/** A request the extractor cannot read: recorded under an action that no policy grants, so it shows. */
export function unreadable(service: string, why: string): Extracted {
  return {
    operation: 'Unknown',
    authorizations: [{ action: `${service}:Unknown`, resources: ['*'], context: { why } }],
  };
}
