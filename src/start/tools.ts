import { officePool, toolMemory, type Config } from '../config.js';
import { declaredTools, ToolSupervisor, type ToolStatus } from '../tools/index.js';

/**
 * The external programs, declared once (tools/index.ts) and run by the one supervisor. Their version probes start
 * now and are awaited later (`checked`), so they run while the engine starts.
 */
export function startTools(config: Config): { tools: ToolSupervisor; checked: Promise<ToolStatus[]> } {
  // Scratch folders under the data folder, so that a start after a crash finds and removes what a killed run left.
  const tools = new ToolSupervisor(declaredTools({ timeoutMs: config.taskTimeoutMs, verapdfDir: config.verapdfDir, office: officePool(config), memory: toolMemory(config) }), config.dataDir);
  return { tools, checked: tools.init() };
}
