#!/usr/bin/perl
# Write one record database and one resource database with Palm::PDB (Palm::Raw),
# for checking that prc_tools reads what another implementation writes.
use strict;
use warnings;
use Palm::PDB;
use Palm::Raw;

Palm::PDB::RegisterPRCHandlers("Palm::Raw", ["", ""]);

my ($pdb_path, $prc_path) = @ARGV;
die "usage: write_pdb.pl OUT.pdb OUT.prc\n" unless defined $prc_path;

my $pdb = Palm::Raw->new;
$pdb->{name}    = "Perl Records";
$pdb->{type}    = "DATA";
$pdb->{creator} = "PlTs";
$pdb->{version} = 3;
$pdb->{ctime}   = 1_000_000_000;    # Unix time; Palm::PDB stores it from 1904
$pdb->{mtime}   = 1_100_000_000;
$pdb->{baktime} = 0;
$pdb->{modnum}  = 7;
$pdb->{appinfo} = "application info block";
$pdb->{sort}    = "sort";
for my $i (0 .. 2) {
    my $record = $pdb->append_Record;
    $record->{data}     = "record number $i" x ($i + 1);
    $record->{id}       = 1000 + $i;
    $record->{category} = $i;
    $record->{attributes}{dirty} = 1 if $i == 1;
}
$pdb->Write($pdb_path);

my $prc = Palm::Raw->new;
$prc->{attributes}{resource} = 1;
$prc->{name}    = "Perl Resources";
$prc->{type}    = "appl";
$prc->{creator} = "PlTs";
$prc->{version} = 1;
$prc->{ctime}   = 1_200_000_000;
$prc->{mtime}   = 1_200_000_000;
$prc->{baktime} = 0;
my @resources = (["tSTR", 1000, "Hello from Perl"], ["code", 0, "\x00\x01\x02\x03"],
    ["tver", 1, "1.0\0"]);
for my $spec (@resources) {
    my $resource = $prc->append_Resource;
    ($resource->{type}, $resource->{id}, $resource->{data}) = @$spec;
}
$prc->Write($prc_path);
