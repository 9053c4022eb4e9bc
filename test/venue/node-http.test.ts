import { createNodeHttp } from '../../src/venue/node-http.js';
import { describeTransport } from './transport-suite.js';

describeTransport('node:http', createNodeHttp, { skipsUnaskedContinue: true, reuseSlack: 0, retiresOnStrayBytes: false });
