/**
 * Issues an operator token:
 *   npm run token -- --tenant acme --max-channels 50 --env prod [--days 365] [--autoabr]
 * `--autoabr` adds the `autoabr` scope: the token may also use the AutoABR API.
 * The key comes from JWT_KEY_PARAMETER (SSM, with AWS credentials of the deployment) or JWT_KEY_FILE
 * (default .data/keys/jwt-es256.jwk.json, the key `npm start` uses).
 */
import { parseArgs } from 'node:util';
import { keyStoreFromEnv } from '../core/auth/signing-key';
import {
  issueOperatorToken,
  type OperatorTokenRequest,
  operatorTokenProblems,
} from '../functions/channel/operator-token';

const USAGE =
  'usage: npm run token -- --tenant <id> [--max-channels N] [--env test|prod] [--days N] [--autoabr]';

const { values } = parseArgs({
  options: {
    tenant: { type: 'string' },
    'max-channels': { type: 'string', default: '10' },
    env: { type: 'string', default: 'test' },
    days: { type: 'string', default: '365' },
    autoabr: { type: 'boolean', default: false },
  },
});

if (!values.tenant || (values.env !== 'test' && values.env !== 'prod')) {
  console.error(USAGE);
  process.exit(2);
}

const request: OperatorTokenRequest = {
  tenant: values.tenant,
  maxChannels: Number(values['max-channels']),
  env: values.env,
  days: Number(values.days),
  autoabr: values.autoabr,
};
const problems = operatorTokenProblems(request);
if (problems.length > 0) {
  for (const p of problems) console.error(`${p.field}: ${p.message}`);
  process.exit(1);
}

try {
  console.log(JSON.stringify(await issueOperatorToken(request, keyStoreFromEnv()), null, 2));
} catch (err) {
  console.error(err);
  process.exit(1);
}
