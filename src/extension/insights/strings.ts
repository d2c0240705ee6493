// Every word of the insights webviews, translated here in the host (the webviews have no l10n):
// sent with each model, `{0}` filled in by the webview.

import * as vscode from 'vscode';
import type { InsightsStrings } from '../../core/views';

export function coverageStrings(): InsightsStrings {
  return {
    title: vscode.l10n.t('Data coverage'),
    resource: vscode.l10n.t('Resource'),
    reload: vscode.l10n.t('Reload'),
    field: vscode.l10n.t('Field'),
    provided: vscode.l10n.t('provided'),
    never: vscode.l10n.t('never'),
    sometimes: vscode.l10n.t('sometimes'),
    neverZeroDefault: vscode.l10n.t('never: the source does not provide it (the service sends 0)'),
    deprecated: vscode.l10n.t('deprecated'),
    deprecatedField: vscode.l10n.t('{0} is deprecated by the service: a source that still sends it is counted here and named in Notes'),
    legend: vscode.l10n.t('provided: on every record, and not 0 or null · sometimes: in between · never: 0, null or absent on every record'),
    nonZero: vscode.l10n.t('non-zero'),
    sent: vscode.l10n.t('sent'),
    zero: vscode.l10n.t('0'),
    null: vscode.l10n.t('null'),
    absent: vscode.l10n.t('absent'),
    sourceSummary: vscode.l10n.t('{0}, {1}, {2} – {3}'),
    recordCount: vscode.l10n.t('{0} records'),
    'recordCount.one': vscode.l10n.t('1 record'),
    dayCount: vscode.l10n.t('{0} days'),
    'dayCount.one': vscode.l10n.t('1 day'),
    noSource: vscode.l10n.t('(no source)'),
    noRecords: vscode.l10n.t('No records in this range.'),
    records: vscode.l10n.t('{0} records'),
    overlaps: vscode.l10n.t('Overlaps: days with two or more sources for one human (summing them double counts)'),
    noOverlaps: vscode.l10n.t('No day has two sources for one human.'),
    date: vscode.l10n.t('Date'),
    human: vscode.l10n.t('Human'),
    sources: vscode.l10n.t('Sources'),
    notes: vscode.l10n.t('Notes'),
    noNotes: vscode.l10n.t('Nothing to note.'),
    cellRecords: vscode.l10n.t('{0} · {1} · {2}: {3} records'),
    'cellRecords.one': vscode.l10n.t('{0} · {1} · {2}: 1 record'),
    cellMore: vscode.l10n.t('and {0} more'),
    open: vscode.l10n.t('Open'),
    cellHint: vscode.l10n.t('Choose a count in the matrix to list its records.'),
    unusualZero: vscode.l10n.t('Unusual 0: the source sends this field on 19 in 20 of its other records or more (a day the device was not worn?)'),
    incomplete: vscode.l10n.t('Incomplete: {0}'),
  };
}

export function trendsStrings(): InsightsStrings {
  return {
    title: vscode.l10n.t('Trends'),
    from: vscode.l10n.t('From'),
    to: vscode.l10n.t('To'),
    apply: vscode.l10n.t('Apply'),
    reload: vscode.l10n.t('Reload'),
    human: vscode.l10n.t('Human'),
    humanOption: vscode.l10n.t('{0} ({1} records)'),
    'humanOption.one': vscode.l10n.t('{0} (1 record)'),
    showTable: vscode.l10n.t('Table of “{0}”'),
    date: vscode.l10n.t('Date'),
    time: vscode.l10n.t('Local time'),
    gap: vscode.l10n.t('0 sent: not provided'),
    gapLegend: vscode.l10n.t('A marked gap: the source sent 0 because it does not provide the value; it is not drawn as 0. A triangle: an unusual 0, from a source that sends the value on 19 in 20 of its other days or more (a device not worn?).'),
    unusualGap: vscode.l10n.t('0 sent: unusual'),
    unusual: vscode.l10n.t('{0}: unusual 0 of {1} on {2} days: it sends {1} on 19 in 20 of its other days or more'),
    'unusual.one': vscode.l10n.t('{0}: unusual 0 of {1} on 1 day: it sends {1} on 19 in 20 of its other days or more'),
    hoverUnusual: vscode.l10n.t('{0} · {1}: 0 sent, unusual for this source (a device not worn?)'),
    never: vscode.l10n.t('{0}: never sends {1} (every value 0 or missing)'),
    open: vscode.l10n.t('Open record'),
    noData: vscode.l10n.t('No data in this range.'),
    band: vscode.l10n.t('{0} min–max'),
    hover: vscode.l10n.t('{0} · {1}: {2} {3}'),
    hoverGap: vscode.l10n.t('{0} · {1}: 0 sent (not provided)'),
    clickHint: vscode.l10n.t('Click a point to open its record.'),
    legendToggle: vscode.l10n.t('Show or hide {0}'),
  };
}
