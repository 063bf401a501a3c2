/**
 * SSM Parameter Store stand-in: GetParameter, GetParameters, PutParameter, in memory. Enough for the
 * signing-key custom resource (which creates the keys) and every reader of JWT_KEY_PARAMETER.
 */
import { AwsError, type JsonService, startJsonService } from './json-service';

interface Parameter {
  Name: string;
  Type: string;
  Value: string;
  Version: number;
  LastModifiedDate: number;
  ARN: string;
  DataType: 'text';
}

export async function startSsm(env: { account: string; region: string }): Promise<JsonService> {
  const parameters = new Map<string, Parameter>();
  const arn = (name: string) =>
    `arn:aws:ssm:${env.region}:${env.account}:parameter${name.startsWith('/') ? '' : '/'}${name}`;
  return startJsonService('AmazonSSM', {
    GetParameter: ({ Name }: { Name: string }) => {
      const parameter = parameters.get(Name);
      if (!parameter) throw new AwsError('ParameterNotFound', `${Name} not found`);
      return { Parameter: parameter };
    },
    GetParameters: ({ Names }: { Names: string[] }) => ({
      Parameters: Names.flatMap((n) => parameters.get(n) ?? []),
      InvalidParameters: Names.filter((n) => !parameters.has(n)),
    }),
    PutParameter: (input: { Name: string; Value: string; Type?: string; Overwrite?: boolean }) => {
      const existing = parameters.get(input.Name);
      if (existing && !input.Overwrite) throw new AwsError('ParameterAlreadyExists', `${input.Name} exists`);
      const Version = (existing?.Version ?? 0) + 1;
      parameters.set(input.Name, {
        Name: input.Name,
        Type: input.Type ?? existing?.Type ?? 'String',
        Value: input.Value,
        Version,
        LastModifiedDate: Date.now() / 1000,
        ARN: arn(input.Name),
        DataType: 'text',
      });
      return { Version, Tier: 'Standard' };
    },
  });
}
