/**
 * The token signing keys (core/auth/signing-key.ts), for operators:
 *   npm run keys -- --stage prod --show      kids of the current and next keys
 *   npm run keys -- --stage prod --create    creates them if absent (the stack does this at deploy)
 *   npm run keys -- --stage prod --rotate    next becomes current, a fresh key becomes next
 * `--stage` means the SSM parameters `/onair/<stage>/jwt-signing-key/{current,next}` (AWS credentials
 * of the deployment's account and region); without it JWT_KEY_PARAMETER or JWT_KEY_FILE decide, as
 * for `npm run token`. Private keys are never printed.
 */
import { parseArgs } from 'node:util';
import {
  type KeyStore,
  keyStoreFromEnv,
  loadSigningKeys,
  newSigningKeys,
  rotateSigningKeys,
  type SigningKeys,
  SsmKeyStore,
} from '../core/auth/signing-key';

const USAGE = 'usage: npm run keys -- [--stage test|prod] --show | --create | --rotate';

const { values } = parseArgs({
  options: {
    stage: { type: 'string' },
    show: { type: 'boolean', default: false },
    create: { type: 'boolean', default: false },
    rotate: { type: 'boolean', default: false },
  },
});

const actions = [values.show, values.create, values.rotate].filter(Boolean).length;
if (actions !== 1 || (values.stage !== undefined && !['test', 'prod'].includes(values.stage))) {
  console.error(USAGE);
  process.exit(2);
}

const store: KeyStore = values.stage
  ? new SsmKeyStore(`/onair/${values.stage}/jwt-signing-key`)
  : keyStoreFromEnv();
const kids = (keys: SigningKeys) => ({ current: keys.current.kid, next: keys.next?.kid ?? null });

try {
  if (values.show) {
    const keys = await store.read();
    console.log(JSON.stringify({ location: store.location, ...(keys ? kids(keys) : { current: null }) }));
  } else if (values.create) {
    const keys = store.createOnFirstUse
      ? await loadSigningKeys(store)
      : await store.createIfAbsent(await newSigningKeys());
    console.log(JSON.stringify({ location: store.location, ...kids(keys) }));
  } else {
    const { retired, keys } = await rotateSigningKeys(store);
    console.log(JSON.stringify({ location: store.location, retired: retired.kid, ...kids(keys) }));
    console.error(
      'Rotated. Services pick the new keys up within 5 minutes; tokens signed by the retired key now get 401: re-issue them (npm run token).',
    );
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
