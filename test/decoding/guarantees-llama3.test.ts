import { describeGuarantees } from './guarantees.js';

describeGuarantees('llama3');
