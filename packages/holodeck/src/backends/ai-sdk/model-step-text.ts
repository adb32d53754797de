import { type LanguageModel, type LanguageModelMiddleware, wrapLanguageModel } from 'ai';

/**
 * The text the model has streamed in the step in progress, for a governed run: what it wrote
 * before a tool call is that call's rationale on a Novarch hold (when the tool's input has no
 * `reasoning` field). It is read from the model's own stream (a middleware), which the SDK reads
 * before it executes a call: every text part before a `tool-call` part has gone through by then.
 */
export class ModelStepText {
  #text = '';

  /** The step's text so far. */
  current(): string {
    return this.#text;
  }

  /** The model, its stream observed; each step (one model request) starts with no text. */
  wrap(model: LanguageModel): LanguageModel {
    // A model given by id (a string) or of an older specification is left as it is: no rationale.
    if (typeof model !== 'object' || model.specificationVersion !== 'v3') return model;
    const middleware: LanguageModelMiddleware = {
      specificationVersion: 'v3',
      wrapStream: async ({ doStream }) => {
        this.#text = '';
        const result = await doStream();
        const stream = result.stream.pipeThrough(
          new TransformStream({
            transform: (part, controller) => {
              if (part.type === 'text-delta') this.#text += part.delta;
              controller.enqueue(part);
            },
          }),
        );
        return { ...result, stream };
      },
    };
    return wrapLanguageModel({ model, middleware });
  }
}
