import type { ChatRecording } from '../../recording/chat-recording.js';
import type { Style } from '../terminal-style.js';
import type { RecordingChoice } from './recording-options.js';

/** The recording of `holodeck chat`, when --record or --replay asked for one. */
export async function chatRecordingOf(
  choice: RecordingChoice,
  file: string,
  style: Style,
): Promise<ChatRecording | undefined> {
  if (!choice.enabled) return undefined;
  const [{ loadAgent }, { chatRecording }] = await Promise.all([
    import('../../load-agent.js'),
    import('../../recording/chat-recording.js'),
  ]);
  const agent = await loadAgent(file);
  const { recorder } = await choice.open(agent, (message) =>
    process.stderr.write(`${style.yellow('note')} ${message}\n`),
  );
  return recorder ? chatRecording(recorder) : undefined;
}
