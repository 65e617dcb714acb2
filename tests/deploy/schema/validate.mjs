// Validates every object of a YAML stream (kubectl kustomize's output) against the published
// schemas of its kind: Kubernetes (kubernetes-models), Knative Serving and KEDA
// (@kubernetes-models/*). Prints a line per object; exits 1 when one does not validate.
//   node validate.mjs rendered.yaml
import fs from 'node:fs';
import yaml from 'js-yaml';

const packages = {
  'serving.knative.dev': '@kubernetes-models/knative',
  'keda.sh': '@kubernetes-models/keda',
};

let failed = 0;
for (const doc of yaml.loadAll(fs.readFileSync(process.argv[2], 'utf8'))) {
  if (!doc) continue;
  const [group, version] = doc.apiVersion.includes('/') ? doc.apiVersion.split('/')
                                                        : ['', doc.apiVersion];
  const module = group === '' ? `kubernetes-models/${version}/${doc.kind}`
                              : `${packages[group] ?? 'kubernetes-models'}/${group}/${version}/${doc.kind}`;
  const name = `${doc.apiVersion} ${doc.kind} ${doc.metadata?.name}`;
  try {
    const loaded = await import(module);
    new (loaded[doc.kind] ?? loaded.default)(doc).validate();
    console.log(`valid ${name}`);
  } catch (error) {
    failed += 1;
    console.log(`INVALID ${name}: ${error.message}`);
  }
}
process.exit(failed ? 1 : 0);
