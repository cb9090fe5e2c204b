// The optional embeddings endpoint, off by default: settings, the OpenAI-compatible client, operation vectors in
// the registry, and hybrid (lexical + dense) search. Loaded only when an endpoint is configured.
export { resolveEmbeddingsConfig, endpointUrl, endpointLabel, EMBEDDINGS_ENV, DEFAULT_FUSION, FUSIONS } from './config.js';
export type { EmbeddingsConfig, EmbeddingsFlags, Fusion, AuthStyle } from './config.js';
export { EmbeddingsClient, parseEmbeddingsResponse } from './client.js';
export type { EmbedMode, EmbedResult, ClientOptions } from './client.js';
export { embedRegistry } from './embed.js';
export type { EmbedReport } from './embed.js';
export { DenseIndex, hybridSearch, LEXICAL_DEPTH, DENSE_DEPTH, RRF_K, MIX_ALPHA, GATE_SCORE } from './hybrid.js';
export type { Hit, LexicalSearcher, DenseEntry, HybridOptions } from './hybrid.js';
export { SemanticSearch, createSemanticSearch } from './semantic.js';
export type { VectorSource, CatalogVectorStatus, SemanticAnswer, SemanticOptions } from './semantic.js';
export {
  MANIFEST_FILE, VECTORS_FILE, TEXT_RECIPE, operationText, operationTexts, readManifest, readEmbeddings, writeEmbeddings,
  removeEmbeddings, mismatch, encodeVectors, decodeVectors, toHalf, normalize,
} from './store.js';
export type { EmbeddingsManifest, StoredVectors } from './store.js';
