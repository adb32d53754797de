import { context, type Span, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { ObserveTurn } from './turn-observer.js';

/** What the spans say of the agent, and whether they carry text. */
export interface TurnSpanOptions {
  agent: string;
  model: string;
  backend: string;
  /** observability.traces.capture_content: the user message and tool arguments as attributes. */
  captureContent: boolean;
  /** Removes what observability.traces.redaction_patterns match from exported text. */
  redact: (text: string) => string;
}

/**
 * A span per turn (`invoke_agent <agent>`) and, inside it, a span per tool call
 * (`execute_tool <tool>`), named and attributed as the OpenTelemetry GenAI conventions ask. Text
 * (the message, tool arguments) is exported only with capture_content, and redacted then.
 */
export function turnSpans(tracer: Tracer, options: TurnSpanOptions): ObserveTurn {
  return ({ sessionId, message }) => {
    const turn = tracer.startSpan(`invoke_agent ${options.agent}`, {
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': options.agent,
        'gen_ai.request.model': options.model,
        'holodeck.backend': options.backend,
        'holodeck.session.id': sessionId,
        ...(options.captureContent ? { 'holodeck.turn.input': options.redact(message) } : {}),
      },
    });
    const inTurn = trace.setSpan(context.active(), turn);
    const tools = new Map<string, Span>();
    return {
      event(event) {
        if (event.type === 'tool-call') {
          tools.set(
            event.callId,
            tracer.startSpan(
              `execute_tool ${event.name}`,
              {
                attributes: {
                  'gen_ai.operation.name': 'execute_tool',
                  'gen_ai.tool.name': event.name,
                  'gen_ai.tool.call.id': event.callId,
                  ...(options.captureContent
                    ? { 'gen_ai.tool.call.arguments': options.redact(JSON.stringify(event.arguments)) }
                    : {}),
                },
              },
              inTurn,
            ),
          );
        } else if (event.type === 'tool-result') {
          const span = tools.get(event.callId);
          if (!span) return;
          tools.delete(event.callId);
          if (event.isError)
            span.setStatus({ code: SpanStatusCode.ERROR, message: 'the tool returned an error' });
          span.end();
        } else if (event.type === 'finish') {
          const { result } = event;
          turn.setAttributes({
            'gen_ai.usage.input_tokens': result.token_usage.prompt_tokens,
            'gen_ai.usage.output_tokens': result.token_usage.completion_tokens,
            'holodeck.turn.tool_calls': result.tool_calls.length,
          });
          if (result.is_error)
            turn.setStatus({ code: SpanStatusCode.ERROR, message: result.error_reason ?? 'the turn failed' });
        }
      },
      end({ failure }) {
        // A tool call the turn never answered (interrupted, the process died) ends with it.
        for (const span of tools.values()) span.end();
        tools.clear();
        if (failure !== undefined) turn.setStatus({ code: SpanStatusCode.ERROR, message: failure });
        turn.end();
      },
    };
  };
}
