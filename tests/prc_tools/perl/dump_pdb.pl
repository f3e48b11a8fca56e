#!/usr/bin/perl
# Read a PDB or PRC with Palm::PDB (Palm::Raw handler) and print it as JSON:
# the header fields and every record/resource, data in hex.
use strict;
use warnings;
use JSON::PP;
use Palm::PDB;
use Palm::Raw;

Palm::PDB::RegisterPRCHandlers("Palm::Raw", ["", ""]);

my $path = shift or die "usage: dump_pdb.pl FILE\n";
my $pdb = Palm::PDB->new;
$pdb->Load($path);

my %out = map { $_ => $pdb->{$_} } qw(name type creator version ctime mtime baktime modnum uniqueIDseed);
$out{attributes} = $pdb->{attributes};
$out{resources} = [
    map { { type => $_->{type}, id => $_->{id}, data => unpack("H*", $_->{data}) } }
        @{ $pdb->{resources} || [] }
];
$out{records} = [
    map {
        {   id         => $_->{id},
            category   => $_->{category},
            attributes => $_->{attributes},
            data       => unpack("H*", $_->{data})
        }
    } @{ $pdb->{records} || [] }
];
my $appinfo = $pdb->{appinfo};
$appinfo = $appinfo->{raw} if ref $appinfo;
$out{appinfo} = defined $appinfo ? unpack("H*", $appinfo) : undef;
$out{sort} = defined $pdb->{sort} ? unpack("H*", $pdb->{sort}) : undef;
print JSON::PP->new->canonical->encode(\%out), "\n";
