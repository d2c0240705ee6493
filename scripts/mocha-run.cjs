// Runs mocha on the given files with the spec reporter and writes the run's counts to the
// JSON file named first, so `npm test` can add them up across runs.
const Mocha = require('mocha');
const { writeFileSync } = require('node:fs');

const [report, ...files] = process.argv.slice(2);
const mocha = new Mocha({ reporter: 'spec', timeout: 20000 });
for (const f of files) mocha.addFile(f);
const runner = mocha.run((failures) => {
  writeFileSync(report, JSON.stringify({ stats: runner.stats }));
  process.exit(failures ? 1 : 0);
});
