// A scripted stand-in for the model of the docs-assistant example, for running it offline
// (`npm run demo:docs`, `npm run demo:docs -- ingest`, `npm run demo:docs -- test`). It answers the fake
// Anthropic API from the request alone, so any number of runs can share it:
//  - a judge request (forced `submit_verdict` tool) gets a verdict worked out from the prompt:
//    faithfulness checks each sentence of the answer against the <retrieval_context> by its words,
//    contextual_relevancy keeps the context sentences that share words with the question. So the
//    RAG metrics really depend on the passages the retrieval tools returned: no passages, no pass;
//  - a request whose last message holds a search result gets an answer from the best sentence of
//    the first result, citing its source;
//  - a question an earlier search of the conversation already answers is answered from it;
//  - any other question is searched: FAQ topics in faq_search, the rest in handbook_search.
import { reply, toolUse } from '@holodeck/testkit';

const VERDICT_TOOL = 'submit_verdict';
/** The retrieval tools of agent.yaml, as the Claude CLI names them (HoloDeck's in-process server). */
const HANDBOOK = 'mcp__holodeck_tools__handbook_search';
const FAQ = 'mcp__holodeck_tools__faq_search';
const FAQ_TOPICS = /\b(vpn|print|printer|payslip|parking|park)\b/i;

const STOP = new Set(
  'a an and are as at be by can do for from has have how i if in is it its my of on or the their this to what when where which who will with you your am me we our long many much any get does there'.split(
    ' ',
  ),
);

/** Content words of a text, cut to their first 5 letters so "laptop" and "laptops" meet. */
function stems(text) {
  return new Set(
    (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
      .filter((word) => !STOP.has(word))
      .map((word) => word.slice(0, 5)),
  );
}

const overlap = (a, b) => [...a].filter((word) => b.has(word)).length;
const sentences = (text) =>
  text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
const between = (text, tag) => new RegExp(`<${tag}[^>]*>\\n?([\\s\\S]*?)\\n?</${tag}>`).exec(text)?.[1] ?? '';

/** The result blocks of a search answer: citation fields and text. */
function parseResults(text) {
  return text
    .split(/\n\n(?=\[\d+\] source: )/)
    .map((block) => {
      const [citation = '', ...body] = block.split('\n');
      const fields = Object.fromEntries(
        citation
          .replace(/^\[\d+\]\s*/, '')
          .split(' | ')
          .map((part) => part.split(': ', 2)),
      );
      return { fields, text: body.join('\n') };
    })
    .filter((result) => result.fields.source);
}

/** The sentence of `results` that shares most words with the question, with its citation. */
function answerFrom(results, question) {
  const asked = stems(question);
  let best;
  for (const result of results.slice(0, 1)) {
    // A record's own question (an FAQ row) is not an answer.
    for (const sentence of sentences(result.text).filter((text) => !text.endsWith('?'))) {
      const score = overlap(stems(sentence), asked);
      if (!best || score > best.score || (score === best.score && sentence.length > best.sentence.length))
        best = { score, sentence, fields: result.fields };
    }
  }
  if (!best) return undefined;
  const { source, heading, page } = best.fields;
  const where = [source, heading?.split(' > ').at(-1), page && `page ${page}`].filter(Boolean).join(', ');
  return `${best.sentence.replace(/[.!?]?$/, '.')} (source: ${where})`;
}

// ---------------------------------------------------------------- judge verdicts

function faithfulnessVerdict(prompt) {
  const context = stems(between(prompt, 'retrieval_context'));
  const claims = sentences(between(prompt, 'agent_response').replace(/\s*\(source: [^)]*\)/g, '')).map(
    (claim) => {
      const words = [...stems(claim)];
      const found = words.filter((word) => context.has(word)).length;
      const supported = words.length > 0 && found / words.length >= 0.75;
      return {
        claim,
        verdict: supported ? 'supported' : 'not_mentioned',
        reason: supported
          ? 'the retrieval context states it'
          : `the retrieval context does not mention ${words.filter((word) => !context.has(word)).join(', ')}`,
      };
    },
  );
  return { claims };
}

function relevancyVerdict(prompt) {
  const asked = stems(between(prompt, 'user_input'));
  const context = between(prompt, 'retrieval_context');
  // Each chunk's own text (its citation is the chunk's source attribute, not part of the text).
  const statements = [...context.matchAll(/<context_chunk[^>]*>\n?([\s\S]*?)\n?<\/context_chunk>/g)].flatMap(
    (match) => sentences(match[1] ?? ''),
  );
  return {
    statements: statements.map((statement) => {
      const relevant = overlap(stems(statement), asked) > 0;
      return {
        statement,
        relevant,
        reason: relevant ? 'shares the subject of the question' : 'another subject',
      };
    }),
  };
}

function verdictFor(schema, prompt) {
  const properties = schema.properties ?? {};
  if ('claims' in properties) return faithfulnessVerdict(prompt);
  if ('statements' in properties) return relevancyVerdict(prompt);
  throw new Error(
    `the docs-assistant offline model has no verdict for a judge asking for ${Object.keys(properties)}`,
  );
}

// ---------------------------------------------------------------- Anthropic Messages adapter

/** The CLI appends `<system-reminder>` blocks to prompts and tool results: not what was sent. */
const withoutReminder = (text) => text.split('<system-reminder>')[0].trim();

function textOf(content) {
  if (typeof content === 'string') return content;
  return content
    .flatMap((block) => {
      if (block.type === 'text') return [block.text];
      if (block.type === 'tool_result')
        return [typeof block.content === 'string' ? block.content : textOf(block.content ?? [])];
      return [];
    })
    .filter((text) => !text.startsWith('<system-reminder>'))
    .join('\n');
}

/** The user's questions (not tool results) of the conversation, oldest first. */
function questions(messages) {
  return messages
    .filter(
      (message) =>
        message.role === 'user' &&
        (typeof message.content === 'string' || message.content.every((block) => block.type === 'text')),
    )
    .map((message) => withoutReminder(textOf(message.content)))
    .filter(Boolean);
}

/** Every search result the conversation holds, newest first. */
function searchResults(messages) {
  return messages
    .flatMap((message) =>
      typeof message.content === 'string'
        ? []
        : message.content.filter((block) => block.type === 'tool_result').map((block) => textOf([block])),
    )
    .map(withoutReminder)
    .filter((text) => text.startsWith('[1] source: '))
    .reverse();
}

/** The step answering one request of the fake Anthropic API. */
export function offlineDocsModel(request) {
  const body = request.messagesBody ?? {};
  const messages = body.messages ?? [];
  const judgeTool = (body.tools ?? []).find((tool) => tool.name === VERDICT_TOOL);
  if (judgeTool)
    return toolUse(VERDICT_TOOL, verdictFor(judgeTool.input_schema, textOf(messages.at(-1)?.content ?? '')));
  const question = questions(messages).at(-1) ?? '';
  const last = messages.at(-1);
  const answered =
    last && typeof last.content !== 'string' && last.content.some((block) => block.type === 'tool_result');
  if (answered) {
    const text = withoutReminder(textOf(last.content.filter((block) => block.type === 'tool_result')));
    const answer = text.startsWith('[1] source: ') ? answerFrom(parseResults(text), question) : undefined;
    return reply(answer ?? 'I found nothing about that in the documents.');
  }
  // An earlier search of this conversation that already holds the answer (3 words in common).
  for (const earlier of searchResults(messages)) {
    const results = parseResults(earlier).filter((result) =>
      sentences(result.text).some((sentence) => overlap(stems(sentence), stems(question)) >= 3),
    );
    if (results.length) return reply(answerFrom(results, question));
  }
  // Searched by its content words, as a model would phrase a query.
  const query = (question.match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((word) => !STOP.has(word.toLowerCase()))
    .join(' ');
  return toolUse(FAQ_TOPICS.test(question) ? FAQ : HANDBOOK, { query }, { text: 'Let me look that up.' });
}
