import { describeGuarantees } from './guarantees.js';

describeGuarantees('gemma3');
