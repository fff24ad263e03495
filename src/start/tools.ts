import { chromiumPool, officePool, toolMemory, type Config } from '../config.js';
import { declaredTools, ToolSupervisor } from '../tools/index.js';

/**
 * The external programs, declared once (tools/index.ts) and run by the one supervisor. Their programs are found now
 * (`prepared`, awaited later, while the engine starts); their version probes run on first need (/health, a tool's
 * first run): veraPDF's starts a JVM, which every start paid (docs/testing.md, "Service start").
 */
export function startTools(config: Config): { tools: ToolSupervisor; prepared: Promise<void> } {
  // Scratch folders under the data folder, so that a start after a crash finds and removes what a killed run left.
  // The spawner (when on) is started by prepare(), now, before the engine's workers grow the process (tools/spawner.ts).
  const tools = new ToolSupervisor(declaredTools({ timeoutMs: config.taskTimeoutMs, verapdfDir: config.verapdfDir, office: officePool(config), chromium: chromiumPool(config), memory: toolMemory(config) }), config.dataDir, { spawner: config.toolSpawner });
  return { tools, prepared: tools.prepare() };
}
