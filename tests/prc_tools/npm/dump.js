// Read a PDB or PRC with the npm package palm-pdb and print it as JSON (tests only):
// header fields, every resource or record (data in hex), and whether palm-pdb's
// re-serialisation gives back the same bytes.
'use strict';
const fs = require('fs');
const { RawPdbDatabase, RawPrcDatabase } = require('palm-pdb');

const path = process.argv[2];
if (!path) {
  console.error('usage: node dump.js FILE');
  process.exit(2);
}
const input = fs.readFileSync(path);
const isResource = (input.readUInt16BE(32) & 0x0001) !== 0;
const db = (isResource ? RawPrcDatabase : RawPdbDatabase).from(input);
const h = db.header;
const seconds = (ts) => Math.round(ts.value.getTime() / 1000);
const hex = (buf) => (buf ? Buffer.from(buf).toString('hex') : null);
const bufferOf = (wrapper) => (wrapper ? wrapper.value : null);

const out = {
  name: h.name,
  type: h.type,
  creator: h.creator,
  attributes: h.attributes.serialize().readUInt16BE(0),
  version: h.version,
  created: seconds(h.creationDate),
  modified: seconds(h.modificationDate),
  backed_up: seconds(h.lastBackupDate),
  modification_number: h.modificationNumber,
  unique_id_seed: h.uniqueIdSeed,
  app_info: hex(bufferOf(db.appInfo)),
  sort_info: hex(bufferOf(db.sortInfo)),
  items: db.records.map((r) =>
    isResource
      ? { type: r.entry.type, id: r.entry.resourceId, data: hex(r.data) }
      : {
          attributes: r.entry.attributes.serialize().readUInt8(0),
          unique_id: r.entry.uniqueId,
          data: hex(r.data),
        },
  ),
  same_bytes: Buffer.compare(db.serialize(), input) === 0,
};
console.log(JSON.stringify(out));
