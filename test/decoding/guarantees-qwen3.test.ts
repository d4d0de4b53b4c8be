import { describeGuarantees } from './guarantees.js';

describeGuarantees('qwen3');
