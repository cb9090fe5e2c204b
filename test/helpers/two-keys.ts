// The spec of a catalog whose one operation needs two API keys together, each in its own header (APISetu's
// X-APISETU-APIKEY and X-APISETU-CLIENTID, audit-importer defect 5): such a catalog reads each key from its own
// variable (`TWOKEYS_APIKEY_API_KEY`, `TWOKEYS_CLIENTID_API_KEY` when imported as `twokeys`), and the config's
// `credentials` names one per scheme (`apiKey:<scheme>`). Shared by the credential-name tests (several-api-keys,
// credential-names-at-start, credential-names-reload).

/** The two-key spec (YAML); `second` renames the second scheme (a re-import that no longer fits the config's names). */
export function twoKeysSpec(second = 'clientId'): string {
  return `openapi: 3.0.3
info: {title: Two keys, version: "1"}
servers: [{url: "https://twokeys.invalid/v1"}]
security: [{apiKey: [], ${second}: []}]
components:
  securitySchemes:
    apiKey: {type: apiKey, in: header, name: X-APISETU-APIKEY}
    ${second}: {type: apiKey, in: header, name: X-APISETU-CLIENTID}
paths:
  /certs/{id}:
    get:
      operationId: getCert
      summary: Get a certificate
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses: {"200": {description: OK}}
`;
}

/** The spec with its default schemes `apiKey` and `clientId`. */
export const TWO_KEYS = twoKeysSpec();
