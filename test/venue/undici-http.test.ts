import { createUndiciHttp } from '../../src/venue/undici-http.js';
import { describeTransport } from './transport-suite.js';

describeTransport('undici', createUndiciHttp, { skipsUnaskedContinue: false, reuseSlack: 1, retiresOnStrayBytes: true });
