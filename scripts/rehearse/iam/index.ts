/**
 * The IAM part of the rehearsal (README.md): load the synthesized template, record every AWS call the
 * rehearsed functions and tasks make, and evaluate them against the roles' synthesized policies.
 */
export { type AwsEnv, awsEnv, DEFAULT_ENV } from './aws-env';
export { AWS_SERVICES, type AwsCall, type AwsService, ENDPOINT_VARIABLE } from './calls';
export { type DefaultLookup, defaultLookup, type LookupOptions, withOverrides } from './default-lookup';
export { passRoleCalls } from './derived-calls';
export { executionRoleCalls } from './ecs-execution-calls';
export { evaluateCalls } from './evaluate';
export { formatReport } from './format-report';
export { lambdaServiceCalls } from './lambda-service-calls';
export { type RolePrincipal, rolesOf } from './principals';
export { type RecordingProxy, type RecordingProxyOptions, startRecordingProxy } from './recorder';
export type { Report } from './report';
export { type CfnTemplate, loadTemplate, type PhysicalLookup, resolve } from './template';
