// Goal 1: validating 100,000 records of the three kinds, every finding computed, against
// JSON.parse of the same records. Issue 17: at most 0.4 of reading the payload.

import { RESOURCES } from '../src/core/resources';
import { prepareValidator, validatePayload, validatePayloadText } from '../src/core/validation';
import { explainDocumentZeros } from '../src/core/views';
import { records } from './datasets';
import { Result, pairDetail, round, sideBySide } from './harness';

export const RECORDS = 100_000;

export async function validateVsParse(): Promise<Result> {
  const corpus = records(RECORDS);
  // Compiling the schemas is a one-time cost (and not on the activation path): keep it out.
  prepareValidator();
  let findings = 0;
  const validateAll = () => {
    findings = 0;
    for (const { kind } of RESOURCES) {
      for (const r of validatePayload(corpus.lists[kind], kind)) findings += r.findings.length;
    }
  };
  const parseAll = () => {
    for (const { kind } of RESOURCES) JSON.parse(corpus.texts[kind]);
  };
  const pair = await sideBySide(validateAll, parseAll);
  // The same with the kind detected from each record, as `health-data validate` does for a file.
  const detected = await sideBySide(() => {
    for (const { kind } of RESOURCES) validatePayload(corpus.lists[kind]);
  }, parseAll, { runs: 5, warmup: 1 });
  // Not in the ratio: the editor's way (and the CLI's for a file of up to 16 MB), from the text,
  // each finding placed on its key or value as the Problems panel shows it.
  let placed = 0;
  const withPlaces = await sideBySide(() => {
    placed = 0;
    for (const { kind } of RESOURCES) placed += validatePayloadText(corpus.texts[kind], { kind }).findings.length;
  }, parseAll, { runs: 5, warmup: 1 });
  if (placed !== findings) throw new Error(`${placed} findings placed of ${findings}`);
  // Not in the ratio either: what saying each 0 from the list's other records of its source adds
  // to that (the Problems panel's words, and the CLI's for such a file), against placing itself.
  const placedValidations = RESOURCES.map(({ kind }) => validatePayloadText(corpus.texts[kind], { kind }));
  let said = 0;
  const zeros = await sideBySide(() => {
    said = 0;
    for (const v of placedValidations) said += explainDocumentZeros(v).findings.length;
  }, () => {
    for (const { kind } of RESOURCES) validatePayloadText(corpus.texts[kind], { kind });
  }, { runs: 5, warmup: 1 });
  if (said !== findings) throw new Error(`${said} findings said of ${findings}`);
  return {
    ratio: pair.ratio,
    goal: 0.4,
    detail: {
      records: corpus.count,
      byKind: Object.fromEntries(RESOURCES.map(({ kind }) => [kind, corpus.lists[kind].length])),
      jsonBytes: corpus.bytes,
      findings,
      ...pairDetail(pair, 'validate', 'parse'),
      kindDetectedRatio: round(detected.ratio),
      withPlacesMs: round(withPlaces.aMs, 1),
      withPlacesRatio: round(withPlaces.ratio),
      zerosSaidMs: round(zeros.aMs, 1),
      zerosVsPlacedRatio: round(zeros.ratio),
    },
  };
}
