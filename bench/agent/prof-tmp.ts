import { runToolwright, toolwrightTools } from './workload.js';
const tw = toolwrightTools();
for (let i = 0; i < 150; i++) await runToolwright(tw, 400, 2);
